import type { ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { Layout } from './components/Layout';
import { RequireArea } from './components/RequireArea';
import { ErrorNote } from './components/ui';
import { Account } from './pages/Account';
import { AcquirerAccounts } from './pages/AcquirerAccounts';
import { ApiKeys } from './pages/ApiKeys';
import { AuditLog } from './pages/AuditLog';
import { BillDetail } from './pages/BillDetail';
import { Bills } from './pages/Bills';
import { DisputeDetail } from './pages/DisputeDetail';
import { Disputes } from './pages/Disputes';
import { Home } from './pages/Home';
import { PaymentDetail } from './pages/PaymentDetail';
import { Payments } from './pages/Payments';
import { Settlements, SettlementDetail } from './pages/Settlements';
import { Balances, PayoutDetail, Payouts } from './pages/Payouts';
import { SignIn } from './pages/SignIn';
import { StoreDetail, Stores } from './pages/Stores';
import { Tips } from './pages/Tips';
import { Users } from './pages/Users';
import { Webhooks } from './pages/Webhooks';
import { useSession } from './session';

/** Pages need a session; after an authenticator reset only the account page until enrolled. */
function SignedIn({ children }: { children: ReactNode }) {
  const { token, me, loading } = useSession();
  const location = useLocation();
  if (!token) return <Navigate to="/sign-in" replace state={{ from: location.pathname + location.search }} />;
  if (loading) return <p className="loading">Loading…</p>;
  if (!me) return <p className="loading">Signing in…</p>;
  if (me.user.mfaEnrollmentRequired && !me.user.mfaEnabled && location.pathname !== '/account') return <Navigate to="/account" replace />;
  return <>{children}</>;
}

const area = (a: string, title: string, page: ReactNode) => (
  <RequireArea area={a} title={title}>
    {page}
  </RequireArea>
);

export function App() {
  return (
    <Routes>
      <Route path="/sign-in" element={<SignIn />} />
      <Route
        element={
          <SignedIn>
            <Layout />
          </SignedIn>
        }
      >
        <Route index element={area('sharedViews', 'the home page', <Home />)} />
        <Route path="payments" element={area('sharedViews', 'Payments', <Payments />)} />
        <Route path="payments/:paymentId" element={area('sharedViews', 'Payments', <PaymentDetail />)} />
        <Route path="bills" element={area('sharedViews', 'Bills', <Bills />)} />
        <Route path="bills/:billId" element={area('sharedViews', 'Bills', <BillDetail />)} />
        <Route path="stores" element={area('stores', 'Stores', <Stores />)} />
        <Route path="stores/:storeExternalId" element={area('stores', 'Stores', <StoreDetail />)} />
        <Route path="webhooks" element={area('webhooks', 'Webhooks', <Webhooks />)} />
        <Route path="settlements" element={area('finance', 'Settlements', <Settlements />)} />
        <Route path="settlements/:id" element={area('finance', 'Settlements', <SettlementDetail />)} />
        <Route path="payouts" element={area('finance', 'Payouts', <Payouts />)} />
        <Route path="payouts/:id" element={area('finance', 'Payouts', <PayoutDetail />)} />
        <Route path="balances" element={area('finance', 'Balances', <Balances />)} />
        <Route path="tips" element={area('finance', 'Tips', <Tips />)} />
        <Route path="users" element={area('users', 'Users', <Users />)} />
        <Route path="api-keys" element={area('apiKeys', 'API keys', <ApiKeys />)} />
        <Route path="audit-log" element={area('auditLogs', 'Audit log', <AuditLog />)} />
        <Route path="acquirer-accounts" element={area('acquirerAccounts', 'Acquirer accounts', <AcquirerAccounts />)} />
        <Route path="disputes" element={area('disputes', 'Disputes', <Disputes />)} />
        <Route path="disputes/:id" element={area('disputes', 'Disputes', <DisputeDetail />)} />
        <Route path="account" element={<Account />} />
        <Route path="*" element={<ErrorNote error={new Error('This page does not exist.')} />} />
      </Route>
    </Routes>
  );
}
