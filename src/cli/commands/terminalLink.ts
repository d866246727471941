import { linkTerminal } from '../../operator/terminals';
import { commandAction, type RegisterCommand } from '../command';
import { describeTerminal, terminalSelector, withTerminalSelectors, type TerminalSelectorOptions } from './terminalSelectors';

export const terminalLink: RegisterCommand = (program) => {
  withTerminalSelectors(program.command('terminal:link').description('link a registered terminal to its device, which makes it ready; prints the terminal'))
    .requiredOption('--device <deviceId>', "the acquirer's device id (any id works with the sandbox)")
    .option('--two-step', 'the device authorises first and captures on a second step', false)
    .option('--no-void', 'the device cannot reverse a captured payment')
    .action(
      commandAction<TerminalSelectorOptions & { device: string; twoStep: boolean; void: boolean }>(async (opts, ctx) => {
        const terminal = await ctx.withDb((db) =>
          linkTerminal(db, { ...terminalSelector(opts), deviceId: opts.device, twoStep: opts.twoStep, voidSupported: opts.void }),
        );
        return { result: terminal, human: describeTerminal(terminal) };
      }),
    );
};
