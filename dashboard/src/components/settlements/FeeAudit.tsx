import { ScrollTable } from '../ScrollTable';
import { useQuery } from '@tanstack/react-query';
import { getSettlementFeeAudit, type GetSettlementFeeAuditData } from '@in-store-payments/client';
import { ErrorNote, money } from '../ui';

/**
 * The fee audit over the batches the filters select (docs/payouts-and-fees.md, issue 27): per currency what the
 * acquirers charged, what the cost contracts give, and the difference, what to claim back.
 */
export function FeeAudit({ query }: { query: GetSettlementFeeAuditData['query'] }) {
  const audit = useQuery({ queryKey: ['settlement-fee-audit', query], queryFn: async () => (await getSettlementFeeAudit({ query })).data });
  if (audit.error) return <ErrorNote error={audit.error} />;
  const totals = audit.data?.totals ?? [];
  if (!totals.length) return null;
  return (
    <ScrollTable label="Fees against contract">
      <caption>Fees against contract, over these batches</caption>
      <thead>
        <tr>
          <th>Currency</th>
          <th>Batches</th>
          <th>Charged</th>
          <th>Contract</th>
          <th>Over contract</th>
        </tr>
      </thead>
      <tbody>
        {totals.map((t) => (
          <tr key={t.currency}>
            <td>{t.currency}</td>
            <td>{t.batchCount}</td>
            <td>{money(t.feeAmount, t.currency)}</td>
            <td>{money(t.expectedFeeAmount, t.currency)}</td>
            <td>{money(t.overContractAmount, t.currency)}</td>
          </tr>
        ))}
      </tbody>
    </ScrollTable>
  );
}
