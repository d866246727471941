import { NavLink, Outlet } from 'react-router';
import { NAV_SECTIONS } from '../areas';
import { useSession } from '../session';

/**
 * The frame of every signed-in page: a bar with who is signed in, and a sidebar of the user's
 * areas in sections (docs/dashboard.md, "Navigation"); a section none of whose areas the user may
 * use is not shown. NavLink marks the current area with aria-current="page".
 */
export function Layout() {
  const { me, can, signOut } = useSession();
  const sections = NAV_SECTIONS.map((s) => ({ ...s, items: s.items.filter((item) => can(item.area)) })).filter((s) => s.items.length > 0);
  return (
    <div className="frame">
      <a className="skip" href="#content">
        Skip to content
      </a>
      <header className="top">
        <NavLink to="/" end className="brand">
          In-store payments
        </NavLink>
        <div className="who">
          <NavLink to="/account">{me?.user.username}</NavLink>
          <span className="merchant">{me?.user.merchantName}</span>
          <button type="button" className="link" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <div className="body">
        <nav aria-label="Main" className="side">
          <div className="side-inner">
            {sections.map((s) => {
              const id = `nav-${s.title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
              return (
                <div key={s.title} className="nav-section">
                  <h2 id={id}>{s.title}</h2>
                  <ul aria-labelledby={id}>
                    {s.items.map((item) => (
                      <li key={item.path}>
                        <NavLink to={item.path}>{item.label}</NavLink>
                      </li>
                    ))}
                  </ul>
                </div>
              );
            })}
          </div>
        </nav>
        <main id="content" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
    </div>
  );
}
