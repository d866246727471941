import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { createSession } from '@in-store-payments/client';
import { ApiError, takeSessionEndedNotice } from '../api';
import { useSession } from '../session';

/**
 * Sign-in (docs/dashboard.md, "Sign-in and the authenticator"): Username and Password, then, for an account with an authenticator, a
 * second step asking for the Authentication code. The password stays in memory until the code
 * is sent with it; nothing goes into the address.
 */
export function SignIn() {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [needsCode, setNeedsCode] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { signedIn } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const [expired] = useState(takeSessionEndedNotice);
  const from = (location.state as { from?: string } | null)?.from;

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const { data: answer } = await createSession({ body: { username, password, ...(needsCode ? { totp: code } : {}) } });
      setPassword('');
      signedIn(answer.token);
      void navigate(answer.mfaEnrollmentRequired ? '/account' : (from ?? '/'), { replace: true });
    } catch (err) {
      if (err instanceof ApiError && err.status === 401 && /^totp: .*required/.test(err.message)) {
        setNeedsCode(true);
      } else {
        setError(err instanceof ApiError ? err.message : 'Sign-in failed; try again.');
        if (needsCode) setCode('');
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="signin">
      <form onSubmit={(e) => void submit(e)} aria-label="Sign in">
        <h1>In-store payments</h1>
        {expired && !error && <p className="note">Your session has ended. Sign in again.</p>}
        {!needsCode ? (
          <>
            <label>
              Username
              <input name="username" autoComplete="username" value={username} onChange={(e) => setUsername(e.target.value)} required autoFocus />
            </label>
            <label>
              Password
              <input name="password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} required />
            </label>
          </>
        ) : (
          <label>
            Authentication code
            <input
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="\d{6}"
              maxLength={6}
              value={code}
              onChange={(e) => setCode(e.target.value.trim())}
              required
              autoFocus
            />
          </label>
        )}
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
    </div>
  );
}
