// A real Chromium for browser tests with nothing to install: @sparticuz/chromium ships the
// binary inside the npm package (CHROMIUM_PATH points at another one, e.g. Debian's).
// Its own flags are tuned for AWS Lambda (single process: closing the last page ends the
// browser), so it runs with ordinary headless flags; these also keep it off the network,
// which this machine does not have (refused connections slow it down).
import sparticuz from '@sparticuz/chromium';
import { chromium, type Browser } from 'playwright-core';

const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? (await sparticuz.executablePath()), args: FLAGS });
}
