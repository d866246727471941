import type { Command } from 'commander';
import type { TerminalOperatorView, TerminalSelector } from '../../operator/terminals';

/** The options every terminal command names its terminal with (terminal:link, :unlink, :clear). */
export interface TerminalSelectorOptions {
  merchant: string;
  store: string;
  terminal: string;
}

export function withTerminalSelectors(command: Command): Command {
  return command
    .requiredOption('--merchant <externalId>', "the business's external id")
    .requiredOption('--store <externalId>', "the store's external id")
    .requiredOption('--terminal <externalId>', "the terminal's external id");
}

export const terminalSelector = (opts: TerminalSelectorOptions): TerminalSelector => ({
  merchantExternalId: opts.merchant,
  storeExternalId: opts.store,
  terminalExternalId: opts.terminal,
});

export function describeTerminal(t: TerminalOperatorView): string {
  if (!t.deviceId) return `terminal '${t.externalId}' (${t.label}) has no device link; not ready`;
  const caps = `${t.twoStep ? 'two-step' : 'one-step'}, ${t.voidSupported ? 'void supported' : 'no void'}`;
  return `terminal '${t.externalId}' (${t.label}) linked to device '${t.deviceId}' (${caps}); ready`;
}
