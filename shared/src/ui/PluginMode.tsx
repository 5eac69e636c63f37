// Plugin mode (spec 000 §9 'Modal width'): inside the Outlook add-in or the Chrome side panel
// modals take the full width; in the web app they are 400 px wide.
import { createContext, useContext, type ReactNode } from 'react';

export const MODAL_WIDTH = 400;

export const PluginModeContext = createContext<boolean>(false);

export function PluginModeProvider({ value, children }: { value: boolean; children: ReactNode }) {
  return <PluginModeContext.Provider value={value}>{children}</PluginModeContext.Provider>;
}

export function usePluginMode(): boolean {
  return useContext(PluginModeContext);
}

/** CSS width for a modal surface: '100%' under a plugin, otherwise '400px'. */
export function modalWidth(pluginMode: boolean): string {
  return pluginMode ? '100%' : `${MODAL_WIDTH}px`;
}

export function useModalWidth(): string {
  return modalWidth(usePluginMode());
}

/** Style for a Fluent DialogSurface honouring the plugin-mode width. */
export function useModalSurfaceStyle(): { width: string; maxWidth: string; boxSizing: 'border-box' } {
  const width = useModalWidth();
  return { width, maxWidth: '100%', boxSizing: 'border-box' };
}
