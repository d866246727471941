// The floor's activities do nothing: its cost is the engine's alone (bench/sameShapeWorkflow.ts).
export async function sendBill(): Promise<string> {
  return 'placed';
}
export async function project(): Promise<void> {}
export async function publish(): Promise<void> {}
