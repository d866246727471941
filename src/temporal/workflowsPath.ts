/** The workflow sources a worker bundles when no prebuilt bundle is configured (WORKFLOW_BUNDLE), and the input of `npm run build:workflows`. */
export const WORKFLOWS_PATH = require.resolve('../../workflows');
