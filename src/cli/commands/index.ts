import type { RegisterCommand } from '../command';
import { apikeyCreate } from './apikeyCreate';
import { merchantCreate } from './merchantCreate';
import { secretsReencrypt } from './secretsReencrypt';
import { terminalClear } from './terminalClear';
import { terminalLink } from './terminalLink';
import { terminalUnlink } from './terminalUnlink';
import { userCreate } from './userCreate';

/** Every operator command, in the order `--help` lists them. A new command: one file, one entry here. */
export const commands: RegisterCommand[] = [merchantCreate, userCreate, apikeyCreate, terminalLink, terminalUnlink, terminalClear, secretsReencrypt];
