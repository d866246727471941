import { defineConfig } from '@playwright/test';

/**
 * The dashboard's browser tests (docs/dashboard.md): Debian's Chromium (the browser build
 * Playwright would download cannot be fetched here), one worker against one service the global
 * set-up starts. CHROMIUM_PATH overrides the browser.
 */
export default defineConfig({
  testDir: './tests',
  globalSetup: require.resolve('./globalSetup'),
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 180_000,
  expect: { timeout: 30_000 },
  reporter: process.env.E2E_JSON_REPORT ? [['list'], ['json', { outputFile: process.env.E2E_JSON_REPORT }]] : [['list']],
  outputDir: '../test-results',
  use: {
    browserName: 'chromium',
    viewport: { width: 1360, height: 900 },
    locale: 'en-US', // money and dates as an English-speaking reader sees them (the dashboard follows the browser's locale)
    actionTimeout: 30_000,
    navigationTimeout: 60_000,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-background-networking', '--disable-gpu', '--disable-component-update', '--no-first-run'],
    },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
});
