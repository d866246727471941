/** The workflow sources a worker bundles when no prebuilt bundle is configured (WORKFLOW_BUNDLE), and the input of `npm run build:workflows`. */
export const WORKFLOWS_PATH = require.resolve('../../workflows');
/** Workflow interceptors every worker, bundle and replay loads: the grant check of money-moving messages (docs/security.md, "Messages to workflows"). */
export const WORKFLOW_INTERCEPTOR_MODULES = [require.resolve('../../workflows/grantCheck')];
