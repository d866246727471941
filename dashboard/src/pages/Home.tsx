import { ScrollTable } from '../components/ScrollTable';
import { useQuery } from '@tanstack/react-query';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { StoreName } from '../components/Names';
import { ErrorNote, money } from '../components/ui';
import { getDashboardSummary } from '@in-store-payments/client';

/** Outcomes of the chart, each a set of statuses by their API names. */
const OUTCOMES: { name: string; statuses: string[]; color: string }[] = [
  { name: 'Paid', statuses: ['CAPTURED', 'SETTLED', 'PARTIALLY_REFUNDED', 'REFUNDED'], color: '#2e7d32' },
  { name: 'Refused', statuses: ['REFUSED'], color: '#c62828' },
  { name: 'Cancelled or expired', statuses: ['CANCELLED', 'EXPIRED'], color: '#8d6e63' },
  { name: 'Error', statuses: ['ERROR', 'FAILED'], color: '#6a1b9a' },
  { name: 'Open', statuses: ['CREATED', 'AWAITING_TERMINAL', 'AUTHORIZED'], color: '#1565c0' },
];

function startOfToday(): Date {
  const d = new Date();
  d.setHours(0, 0, 0, 0);
  return d;
}

/** Home: today's figures per store (the viewer's local day) and payments per hour by outcome. */
export function Home() {
  const from = startOfToday();
  const to = new Date(from.getTime() + 86_400_000);
  const summary = useQuery({
    queryKey: ['summary', from.toISOString()],
    queryFn: async () => (await getDashboardSummary({ query: { from: from.toISOString(), to: to.toISOString() } })).data,
    refetchInterval: 10_000,
  });
  const hours = Array.from({ length: 24 }, (_, h) => {
    const start = new Date(from.getTime() + h * 3_600_000);
    const row: Record<string, number | string> = { hour: `${String(start.getHours()).padStart(2, '0')}:00` };
    for (const o of OUTCOMES) row[o.name] = 0;
    for (const e of summary.data?.hours ?? []) {
      if (new Date(e.hour).getTime() !== start.getTime()) continue;
      const o = OUTCOMES.find((x) => x.statuses.includes(e.status));
      if (o) row[o.name] = (row[o.name] as number) + e.count;
    }
    return row;
  });

  return (
    <section>
      <h1>Today</h1>
      <ErrorNote error={summary.error} />
      <ScrollTable label="Today per store">
        <thead>
          <tr>
            <th>Store</th>
            <th>Currency</th>
            <th>Payments</th>
            <th>Paid</th>
            <th>Paid amount</th>
            <th>Refused</th>
            <th>Open</th>
          </tr>
        </thead>
        <tbody>
          {summary.data?.stores.map((s) => (
            <tr key={`${s.storeExternalId}-${s.currency}`}>
              <td>
                <StoreName id={s.storeExternalId} />
              </td>
              <td>{s.currency}</td>
              <td>{s.payments}</td>
              <td>{s.captured}</td>
              <td>{money(s.capturedAmount, s.currency)}</td>
              <td>{s.refused}</td>
              <td>{s.open}</td>
            </tr>
          ))}
          {summary.data && summary.data.stores.length === 0 && (
            <tr>
              <td colSpan={7}>No payments yet today.</td>
            </tr>
          )}
        </tbody>
      </ScrollTable>
      <h2>Payments per hour</h2>
      <div className="chart" aria-label="Payments per hour by outcome">
        <ResponsiveContainer width="100%" height={280}>
          <BarChart data={hours}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="hour" interval={1} />
            <YAxis allowDecimals={false} />
            <Tooltip />
            <Legend />
            {OUTCOMES.map((o) => (
              <Bar key={o.name} dataKey={o.name} stackId="a" fill={o.color} isAnimationActive={false} />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
    </section>
  );
}
