import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { deleteSession, getDashboardProfile, type DashboardMe as Me } from '@in-store-payments/client';
import { sessionToken, setSessionToken, whenSessionEnds } from './api';

/**
 * The signed-in user and the areas of the role table their roles reach, as the API reports them
 * (GET /api/dashboard/me): the dashboard never decides permissions itself, it only hides what
 * the API would refuse.
 */
interface Session {
  token: string | null;
  me: Me | undefined;
  loading: boolean;
  can: (area: string) => boolean;
  signedIn: (token: string) => void;
  signOut: () => Promise<void>;
}

const SessionContext = createContext<Session | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [token, setToken] = useState<string | null>(sessionToken());
  const client = useQueryClient();
  const navigate = useNavigate();

  useEffect(() => {
    whenSessionEnds(() => {
      setToken(null);
      client.clear();
      void navigate('/sign-in', { replace: true });
    });
  }, [client, navigate]);

  const me = useQuery({ queryKey: ['me', token], queryFn: async () => (await getDashboardProfile()).data, enabled: token !== null, staleTime: 60_000 });

  const value: Session = {
    token,
    me: token ? me.data : undefined,
    loading: token !== null && me.isPending,
    can: (area) => me.data?.areas.includes(area) ?? false,
    signedIn: (t) => {
      setSessionToken(t);
      client.clear();
      setToken(t);
    },
    signOut: async () => {
      try {
        await deleteSession();
      } catch {
        // already ended: signing out locally is all that is left
      }
      setSessionToken(null);
      client.clear();
      setToken(null);
      void navigate('/sign-in', { replace: true });
    },
  };
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside SessionProvider');
  return s;
}
