import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { ApiError } from '../../api';
import { getCostContract, replaceCostContract, type AcquirerAccount, type CostContractLine } from '@in-store-payments/client';
import { ErrorNote, when } from '../ui';

/**
 * An account's cost contract (docs/payouts-and-fees.md, "Cost contracts"): the version in force for a currency, and a form that
 * saves a new version from now on (earlier payments keep the fee they were given).
 */
const CURRENCIES = ['EUR', 'USD', 'GBP', 'CHF', 'SEK', 'NOK', 'DKK', 'PLN', 'CZK', 'JPY'];
type Line = { paymentMode: 'CARD' | 'QR_CODE'; cardBrand: string; percent: string; fixed: string };
const blank = (): Line => ({ paymentMode: 'CARD', cardBrand: '', percent: '', fixed: '0' });

export function CostContract({ account, onDone }: { account: AcquirerAccount; onDone: () => void }) {
  const [currency, setCurrency] = useState('EUR');
  const [lines, setLines] = useState<Line[]>([blank()]);
  const [disputeFee, setDisputeFee] = useState('');
  const inForce = useQuery({
    queryKey: ['cost-contract', account.id, currency],
    queryFn: async () => {
      try {
        return (await getCostContract({ path: { id: account.id }, query: { currency } })).data;
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      }
    },
  });
  const save = useMutation({
    mutationFn: async () => {
      const body = {
        currency,
        lines: lines.map((l): CostContractLine => ({
          paymentMode: l.paymentMode,
          ...(l.cardBrand.trim() ? { cardBrand: l.cardBrand.trim() } : {}),
          percent: Number(l.percent),
          fixed: Number(l.fixed),
        })),
        ...(disputeFee.trim() ? { disputeFee: Number(disputeFee) } : {}),
      };
      return (await replaceCostContract({ path: { id: account.id }, body })).data;
    },
    onSuccess: () => void inForce.refetch(),
  });
  const set = (i: number, patch: Partial<Line>) => setLines(lines.map((l, j) => (j === i ? { ...l, ...patch } : l)));
  const c = inForce.data;
  return (
    <form
      className="inline"
      aria-label={`Cost contract of ${account.name}`}
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <label>
        Currency
        <select value={currency} onChange={(e) => setCurrency(e.target.value)}>
          {CURRENCIES.map((x) => (
            <option key={x}>{x}</option>
          ))}
        </select>
      </label>
      <p aria-label="Contract in force">
        {c
          ? `Version ${c.version} in force since ${when(c.validFrom)}: ${c.lines
              .map((l) => `${l.paymentMode}${l.cardBrand ? ` ${l.cardBrand}` : ''} ${l.percent} % + ${l.fixed}`)
              .join('; ')}${c.disputeFee !== null ? `; dispute fee ${c.disputeFee}` : ''}`
          : inForce.isSuccess
            ? `No cost contract in ${currency}: payments get no expected fee.`
            : 'Loading…'}
      </p>
      {lines.map((l, i) => (
        <fieldset key={i} aria-label={`Line ${i + 1}`}>
          <label>
            Mode
            <select value={l.paymentMode} onChange={(e) => set(i, { paymentMode: e.target.value as Line['paymentMode'] })}>
              <option value="CARD">CARD</option>
              <option value="QR_CODE">QR_CODE</option>
            </select>
          </label>
          <label>
            Card brand
            <input value={l.cardBrand} onChange={(e) => set(i, { cardBrand: e.target.value })} placeholder="any" maxLength={30} />
          </label>
          <label>
            Percent
            <input value={l.percent} onChange={(e) => set(i, { percent: e.target.value })} inputMode="decimal" required />
          </label>
          <label>
            Fixed
            <input value={l.fixed} onChange={(e) => set(i, { fixed: e.target.value })} inputMode="decimal" required />
          </label>
          {lines.length > 1 && (
            <button type="button" onClick={() => setLines(lines.filter((_, j) => j !== i))}>
              Remove line
            </button>
          )}
        </fieldset>
      ))}
      <button type="button" onClick={() => setLines([...lines, blank()])}>
        Add line
      </button>
      <label>
        Dispute fee
        <input value={disputeFee} onChange={(e) => setDisputeFee(e.target.value)} inputMode="decimal" placeholder="none" />
      </label>
      <button type="submit" disabled={save.isPending}>
        Save cost contract
      </button>
      <button type="button" onClick={onDone}>
        Close
      </button>
      <ErrorNote error={save.error ?? inForce.error} />
    </form>
  );
}
