import { loadConfig } from '../../src/config';
import { workerDeploymentOptions } from '../../src/temporal/workerVersioning';

describe('worker versioning settings', () => {
  it('leave the worker unversioned when unset', () => {
    expect(workerDeploymentOptions(loadConfig({}))).toBeUndefined();
  });

  it('make the worker a Deployment Version whose workflows stay on it by default (PINNED)', () => {
    const config = loadConfig({ WORKER_DEPLOYMENT_NAME: 'in-store-payments', WORKER_BUILD_ID: '2026.11.26-1' });
    expect(workerDeploymentOptions(config)).toEqual({
      useWorkerVersioning: true,
      version: { deploymentName: 'in-store-payments', buildId: '2026.11.26-1' },
      defaultVersioningBehavior: 'PINNED',
    });
  });
});
