import { unlinkTerminal } from '../../operator/terminals';
import { commandAction, type RegisterCommand } from '../command';
import { describeTerminal, terminalSelector, withTerminalSelectors, type TerminalSelectorOptions } from './terminalSelectors';

export const terminalUnlink: RegisterCommand = (program) => {
  withTerminalSelectors(
    program.command('terminal:unlink').description('remove the device link of a terminal; it is no longer ready; prints the terminal'),
  ).action(
    commandAction<TerminalSelectorOptions>(async (opts, ctx) => {
      const terminal = await ctx.withDb((db) => unlinkTerminal(db, terminalSelector(opts)));
      return { result: terminal, human: describeTerminal(terminal) };
    }),
  );
};
