// The service worker: the toolbar button opens the side panel. Everything else lives in the panel
// and the content scripts, which talk to each other directly.
import { defineBackground } from 'wxt/utils/define-background';
import { openPanelFromToolbar } from '../host/extension-host';

export default defineBackground(() => {
  openPanelFromToolbar().catch((e: unknown) => console.error('Could not make the toolbar button open the side panel', e));
});
