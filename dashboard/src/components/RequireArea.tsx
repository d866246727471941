import type { ReactNode } from 'react';
import { useSession } from '../session';

/**
 * A page of one area: without the role it says so and renders nothing of the area (its queries
 * never run, since the page's component is not mounted).
 */
export function RequireArea({ area, title, children }: { area: string; title: string; children: ReactNode }) {
  const { can } = useSession();
  if (!can(area)) {
    return (
      <section className="denied" role="alert">
        <h1>{title}</h1>
        <p>You do not have access to {title}. Your roles do not include this area; ask an administrator if you need it.</p>
      </section>
    );
  }
  return <>{children}</>;
}
