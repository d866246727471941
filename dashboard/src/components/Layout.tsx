import { NavLink, Outlet } from 'react-router';
import { NAV } from '../areas';
import { useSession } from '../session';

/** The frame of every signed-in page: navigation limited to the user's areas, who is signed in. */
export function Layout() {
  const { me, can, signOut } = useSession();
  return (
    <div className="frame">
      <header className="top">
        <NavLink to="/" end className="brand">
          In-store payments
        </NavLink>
        <nav aria-label="Main">
          {NAV.filter((item) => can(item.area)).map((item) => (
            <NavLink key={item.path} to={item.path}>
              {item.label}
            </NavLink>
          ))}
        </nav>
        <div className="who">
          <NavLink to="/account">{me?.user.username}</NavLink>
          <span className="merchant">{me?.user.merchantName}</span>
          <button type="button" className="link" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <main>
        <Outlet />
      </main>
    </div>
  );
}
