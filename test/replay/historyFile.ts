import { temporal } from '@temporalio/proto';

/**
 * How a recorded workflow history is kept on disk: the proto's own JSON form (enum names, 64-bit
 * integers and bytes as strings), which turns back into the same History message. (The SDK's
 * historyToJSON cannot be used here: two protobufjs copies in the installed packages disagree.)
 */
const { History } = temporal.api.history.v1;

export function historyToFile(history: temporal.api.history.v1.IHistory): string {
  const plain = History.toObject(History.fromObject(history), { enums: String, longs: String, bytes: String });
  return `${JSON.stringify(plain, null, 1)}\n`;
}

export function historyFromFile(text: string): temporal.api.history.v1.History {
  return History.fromObject(JSON.parse(text));
}
