import type { Browser } from 'playwright-core';
import type { DashboardOptions } from '../../src/index.js';
import { launchChromium } from './browser.js';
import { startDashboard } from './server.js';

/** A dashboard on its own loopback server and a Chromium to drive it: one test file's setup. */
export interface BrowserDashboard {
  readonly origin: string;
  readonly browser: Browser;
  /**
   * Disconnects from the shared browser (dropping the contexts this file opened), then closes the
   * dashboard and its server (never the driver: the file's own).
   */
  close(): Promise<void>;
}

export async function openBrowserDashboard(options: DashboardOptions): Promise<BrowserDashboard> {
  const served = await startDashboard(options);
  const browser = await launchChromium();
  return {
    origin: served.origin,
    browser,
    close: async () => {
      await browser.close();
      await served.close();
    },
  };
}
