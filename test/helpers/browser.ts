// A real Chromium for browser tests with nothing to install: @sparticuz/chromium ships the
// binary inside the npm package (CHROMIUM_PATH points at another one, e.g. Debian's).
// Its own flags are tuned for AWS Lambda (single process: closing the last page ends the
// browser), so it runs with ordinary headless flags; these also keep it off the network,
// which this machine does not have (refused connections slow it down).
import sparticuz from '@sparticuz/chromium';
import { chromium, type Browser } from 'playwright-core';

const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

export async function launchBrowser(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH ?? (await sparticuz.executablePath());
  for (let attempt = 1; ; attempt++) {
    try {
      return await chromium.launch({ executablePath, args: FLAGS });
    } catch (e) {
      // Two browser test files starting together: the first one's worker may still be writing the
      // binary it extracts into the run's temporary directory when the second one runs it.
      if (attempt >= 10 || !String((e as Error).message).includes('ETXTBSY')) throw e;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}
