import { useNames } from '../names/useNames';

/** A name where people read, its id on hover (title); the id itself until the names are known. */
function Named({ name, id }: { name: string | undefined; id: string | null | undefined }) {
  if (!id) return <>—</>;
  return <span title={id}>{name ?? id}</span>;
}

export function StoreName({ id }: { id: string | null | undefined }) {
  return <Named name={useNames().storeName(id)} id={id} />;
}

export function TerminalName({ id }: { id: string | null | undefined }) {
  return <Named name={useNames().terminalLabel(id)} id={id} />;
}

/** An acquirer account by name, its id on hover; null: the installation's default acquirer. */
export function AccountName({ id }: { id: string | null | undefined }) {
  const name = useNames().accountName(id);
  if (!id) return <>installation default</>;
  return <Named name={name} id={id} />;
}

/** A user by id (the audit log's actor), by name; the id on hover. */
export function UserById({ id }: { id: string | null | undefined }) {
  return <Named name={useNames().userById(id)} id={id} />;
}

/** A user by display name (the username on hover); SYSTEM and unknown users by their username. */
export function UserName({ username }: { username: string | null | undefined }) {
  return <Named name={useNames().displayName(username)} id={username} />;
}
