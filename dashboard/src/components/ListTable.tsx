import { ScrollTable } from './ScrollTable';
import type { ReactNode } from 'react';
import { Pager } from './ui';

/**
 * A list page's table: its column headers, its rows, a sentence when there are none, and the pager
 * under it (Settlements, Payouts, Disputes).
 */
export function ListTable({
  label,
  headers,
  empty,
  loaded,
  children,
  page,
  totalPages,
  onPage,
}: {
  label: string;
  headers: string[];
  empty: string;
  loaded: { count: number } | null;
  children: ReactNode;
  page: number;
  totalPages: number | undefined;
  onPage: (p: number) => void;
}) {
  return (
    <>
      <ScrollTable label={label}>
        <thead>
          <tr>
            {headers.map((h) => (
              <th key={h}>{h}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {children}
          {loaded?.count === 0 && (
            <tr>
              <td colSpan={headers.length}>{empty}</td>
            </tr>
          )}
        </tbody>
      </ScrollTable>
      {totalPages !== undefined && <Pager page={page} totalPages={totalPages} onPage={onPage} />}
    </>
  );
}
