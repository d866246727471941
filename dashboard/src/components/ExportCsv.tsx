import { useState } from 'react';
import { saveText } from '../api';
import { ErrorNote, toCsv } from './ui';

type Cell = string | number | null | undefined;

/**
 * *Export CSV* of every page a list's filters select, 100 rows a request, saying how many pages
 * are fetched of how many while it runs (issue 31). The cells are the API's exact values: ids, not
 * names; amounts as sent, not formatted.
 */
export function ExportCsv<T>({
  fetchPage,
  header,
  row,
  filename,
}: {
  fetchPage: (page: number, size: number) => Promise<{ content: T[]; totalPages: number }>;
  header: string[];
  row: (item: T) => Cell[];
  filename: string;
}) {
  const [progress, setProgress] = useState<{ fetched: number; total: number | null } | null>(null);
  const [error, setError] = useState<unknown>(null);

  async function run() {
    setError(null);
    setProgress({ fetched: 0, total: null });
    try {
      const all: T[] = [];
      for (let p = 0; ; p++) {
        const chunk = await fetchPage(p, 100);
        all.push(...chunk.content);
        setProgress({ fetched: p + 1, total: chunk.totalPages });
        if (p + 1 >= chunk.totalPages) break;
      }
      saveText(toCsv(header, all.map(row)), filename);
    } catch (e) {
      setError(e);
    } finally {
      setProgress(null);
    }
  }

  return (
    <>
      <button type="button" disabled={progress !== null} onClick={() => void run()}>
        Export CSV
      </button>
      <span role="status" className="muted">
        {progress && `Exporting: ${progress.fetched} of ${progress.total ?? '…'} ${progress.total === 1 ? 'page' : 'pages'} fetched`}
      </span>
      <ErrorNote error={error} />
    </>
  );
}
