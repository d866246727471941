import type { AcquirerRoutes } from '@in-store-payments/client';
import { Field, when } from '../ui';

/** Which version of a mode's routes is in force, since when and by whom. */
export function RoutesMeta({ routes }: { routes: AcquirerRoutes }) {
  if (!routes.version) return <p className="muted">No routes saved for {routes.mode} payments yet: they go to the installation default.</p>;
  return (
    <dl className="fields" aria-label="Routes version">
      <Field label="Version">{routes.version}</Field>
      <Field label="Updated">{when(routes.updatedAt)}</Field>
      <Field label="Updated by">{routes.updatedBy ?? '—'}</Field>
    </dl>
  );
}
