import { useState } from 'react';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { totalOf, type TipsDay } from '../../tips/perDay';
import { ScrollTable } from '../ScrollTable';
import { money } from '../ui';

/**
 * Tips per business date in one currency: a bar chart in the home chart's style for those who
 * would rather look, and the same figures in words and as a table (the chart's text alternative;
 * the drawing itself is hidden from screen readers).
 */
export function TipsChart({ currency, days }: { currency: string; days: TipsDay[] }) {
  const title = `Tips per day, ${currency}`;
  // The table exists only while opened, so that the page's first table stays the list's.
  const [open, setOpen] = useState(false);
  const top = days.reduce<TipsDay | null>((best, d) => (!best || d.tipValue > best.tipValue ? d : best), null);
  return (
    <figure className="chart tips-chart">
      <figcaption>
        <h2>{title}</h2>
      </figcaption>
      <p>
        {days.length === 1 ? `On ${days[0]!.businessDate}` : `From ${days[0]?.businessDate} to ${days.at(-1)?.businessDate}`}: {money(totalOf(days), currency)}{' '}
        in tips on {days.reduce((n, d) => n + d.count, 0)} payments
        {top && days.length > 1 ? `; the most on ${top.businessDate} (${money(top.tipAmount, currency)})` : ''}.
      </p>
      <div aria-hidden="true">
        <ResponsiveContainer width="100%" height={260}>
          <BarChart data={days} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="businessDate" />
            <YAxis tickFormatter={(v: number) => money(String(v), currency)} width={80} />
            <Tooltip formatter={(v) => money(String(v), currency)} />
            <Bar dataKey="tipValue" name="Tips" fill="#0b5cad" maxBarSize={56} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <details onToggle={(e) => setOpen(e.currentTarget.open)}>
        <summary>{title} as a table</summary>
        {open && (
          <ScrollTable label={title}>
            <thead>
              <tr>
                <th>Business date</th>
                <th>Payments</th>
                <th>Tips</th>
              </tr>
            </thead>
            <tbody>
              {days.map((d) => (
                <tr key={d.businessDate}>
                  <td>{d.businessDate}</td>
                  <td>{d.count}</td>
                  <td>{money(d.tipAmount, currency)}</td>
                </tr>
              ))}
            </tbody>
          </ScrollTable>
        )}
      </details>
    </figure>
  );
}
