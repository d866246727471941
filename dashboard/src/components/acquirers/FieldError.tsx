/** The API's reason for one field, shown under its input (which names it in aria-describedby). */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <span className="field-error" id={id}>
      {message}
    </span>
  );
}

/** The attributes of an input that `FieldError` describes. */
export const invalidProps = (id: string, message: string | undefined) =>
  message ? { 'aria-invalid': true as const, 'aria-describedby': id } : { 'aria-invalid': false as const };
