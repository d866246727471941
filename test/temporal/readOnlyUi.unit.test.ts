import { isReadOnlyUiRequest, readOnlySettings } from '../../src/temporal/readOnlyUi';

/** The dev server's Web UI gate (src/temporal/readOnlyUi.ts): reads pass, every write action is refused and hidden. */
it('passes pages, reads and queries; refuses signal, update, terminate, cancel, reset, start and batch operations', () => {
  for (const [method, url] of [
    ['GET', '/'],
    ['GET', '/api/v1/namespaces/default/workflows?query=x'],
    ['HEAD', '/_app/x.js'],
    ['POST', '/api/v1/namespaces/default/workflows/payment-1/query/paymentState'],
  ])
    expect(isReadOnlyUiRequest(method, url)).toBe(true);
  for (const [method, url] of [
    ['POST', '/api/v1/namespaces/default/workflows/payment-1/update/refund'],
    ['POST', '/api/v1/namespaces/default/workflows/payment-1/signal/resumeRefunds'],
    ['POST', '/api/v1/namespaces/default/workflows/payment-1/terminate'],
    ['POST', '/api/v1/namespaces/default/workflows/payment-1/cancel'],
    ['POST', '/api/v1/namespaces/default/workflows/payment-1/reset'],
    ['POST', '/api/v1/namespaces/default/workflows/payment-1'],
    ['POST', '/api/v1/namespaces/default/batch-operations/b1'],
    ['POST', '/api/v1/namespaces/default/workflows/payment-1/query/x/../../update/refund'],
    ['DELETE', '/api/v1/namespaces/default/schedules/s'],
    ['PUT', '/api/v1/namespaces/default'],
  ])
    expect(isReadOnlyUiRequest(method, url)).toBe(false);
});

it("turns every write action of the UI's settings off", () => {
  const settings = {
    Version: '2.54.1',
    DisableWriteActions: false,
    WorkflowTerminateDisabled: false,
    WorkflowUpdateDisabled: false,
    RefreshWorkflowCountsDisabled: false,
  };
  expect(readOnlySettings(settings)).toEqual({
    Version: '2.54.1',
    DisableWriteActions: true,
    WorkflowTerminateDisabled: true,
    WorkflowUpdateDisabled: true,
    RefreshWorkflowCountsDisabled: false,
  });
});
