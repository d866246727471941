import { Link } from 'react-router';
import type { BillTender } from '@in-store-payments/client';

/** A tender as people name it: its number and method; a card or QR tender links to its payment's page. */
export function TenderLabel({ tender }: { tender: Pick<BillTender, 'paymentId' | 'sequenceNumber' | 'method'> }) {
  const text = `Tender ${tender.sequenceNumber} · ${tender.method ?? 'method not chosen yet'}`;
  return tender.paymentId ? <Link to={`/payments/${tender.paymentId}`}>{text}</Link> : <>{text}</>;
}
