import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import QRCode from 'qrcode';
import { startMfaEnrollment, verifyMfaEnrollment } from '@in-store-payments/client';
import { useSession } from '../session';
import { ErrorNote, Field } from '../components/ui';

/**
 * The signed-in user's account and authenticator (TOTP) enrolment: a new secret shown as a QR
 * code (drawn here, never sent anywhere), on only once a code from the app is verified.
 */
export function Account() {
  const { me } = useSession();
  const client = useQueryClient();
  const [enrolment, setEnrolment] = useState<{ secret: string; qr: string } | null>(null);
  const [code, setCode] = useState('');

  const start = useMutation({
    mutationFn: async () => {
      const { data: e } = await startMfaEnrollment();
      return { secret: e.secret, qr: await QRCode.toDataURL(e.otpauthUrl, { margin: 1, width: 220 }) };
    },
    onSuccess: setEnrolment,
  });
  const verify = useMutation({
    mutationFn: () => verifyMfaEnrollment({ body: { code } }),
    onSuccess: async () => {
      setEnrolment(null);
      setCode('');
      await client.invalidateQueries({ queryKey: ['me'] });
    },
  });

  if (!me) return null;
  const { user } = me;
  return (
    <section>
      <h1>Your account</h1>
      <dl className="fields">
        <Field label="Username">{user.username}</Field>
        <Field label="Business">{user.merchantName}</Field>
        <Field label="Roles">{user.roles.join(', ')}</Field>
        <Field label="Authenticator">{user.mfaEnabled ? 'On' : 'Off'}</Field>
      </dl>
      {user.mfaEnrollmentRequired && !user.mfaEnabled && (
        <p className="note" role="status">
          An administrator reset your authenticator: enrol one to use the dashboard again.
        </p>
      )}
      {!enrolment && (
        <button type="button" onClick={() => start.mutate()} disabled={start.isPending}>
          {user.mfaEnabled ? 'Replace authenticator' : 'Set up authenticator'}
        </button>
      )}
      <ErrorNote error={start.error} />
      {enrolment && (
        <form
          className="enrol"
          onSubmit={(e: FormEvent) => {
            e.preventDefault();
            verify.mutate();
          }}
        >
          <p>Scan the code with your authenticator app, or enter the secret by hand, then type the 6-digit code it shows.</p>
          <img src={enrolment.qr} alt="Authenticator QR code" width={220} height={220} />
          <p>
            Secret: <code data-testid="mfa-secret">{enrolment.secret}</code>
          </p>
          <label>
            Authentication code
            <input inputMode="numeric" pattern="\d{6}" maxLength={6} value={code} onChange={(e) => setCode(e.target.value.trim())} required />
          </label>
          <button type="submit" disabled={verify.isPending}>
            Verify and turn on
          </button>
          <ErrorNote error={verify.error} />
        </form>
      )}
    </section>
  );
}
