import { commandAction, type RegisterCommand } from '../command';
import { terminalSelector, withTerminalSelectors, type TerminalSelectorOptions } from './terminalSelectors';

export const terminalClear: RegisterCommand = (program) => {
  withTerminalSelectors(
    program
      .command('terminal:clear')
      .description("operator only: force the open bill off the terminal's device; the payment ends CANCELLED; prints the payment or null"),
  ).action(
    commandAction<TerminalSelectorOptions>(async (opts, ctx) => {
      // Loaded here, not at the top: the Temporal client is a large load that only this command needs.
      const { clearTerminal } = await import('../../payments/terminalClear');
      const payment = await ctx.withDb((db) => ctx.withTemporal((temporal) => clearTerminal({ db, temporal, config: ctx.config }, terminalSelector(opts))));
      return {
        result: payment,
        human: payment ? `payment ${payment.id} (${payment.pspReference}) is ${payment.status}` : 'no open bill on this terminal',
      };
    }),
  );
};
