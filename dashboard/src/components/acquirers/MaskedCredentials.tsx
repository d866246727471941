/** Credentials as the API answers them: each field masked (`••••1234`), never the value. */
export function MaskedCredentials({ credentials }: { credentials: Record<string, string> | null | undefined }) {
  const entries = Object.entries(credentials ?? {});
  if (entries.length === 0) return <span className="muted">none</span>;
  return (
    <span className="credentials">
      {entries.map(([field, masked]) => (
        <span key={field}>
          {field} <code>{masked}</code>
        </span>
      ))}
    </span>
  );
}
