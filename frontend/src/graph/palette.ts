// Colours of the graph, from the page's CSS custom properties (so themes live in
// CSS). Role colours are Okabe-Ito, safe for the common colour-vision deficiencies.
import { ROLES, type Role } from '../model/graphIndex';

export interface Palette {
  background: string;
  text: string;
  muted: string;
  edge: string;
  edgeBackward: string;
  pulseForward: string;
  pulseBackward: string;
  current: string;
  linked: string;
  gradientText: string;
  error: string;
  ok: string;
  /** Border colour per role (ROLES order). */
  roles: string[];
  /** Fill per role. */
  fills: string[];
}

export const ROLE_LABELS: Record<Role, string> = {
  leaf: 'leaf (requires grad)',
  parameter: 'parameter',
  input: 'input (no grad)',
  intermediate: 'intermediate',
  output: 'output (backward root)',
  gradient: 'made by autograd.grad',
  saved: 'saved for backward',
  function: 'Function (grad_fn)',
};

export function readPalette(element: Element): Palette {
  const css = getComputedStyle(element);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    background: v('--bg-graph', '#fff'),
    text: v('--fg', '#111'),
    muted: v('--fg-muted', '#666'),
    edge: v('--edge', '#9aa0a6'),
    edgeBackward: v('--grad', '#cc79a7'),
    pulseForward: v('--pulse-forward', '#0072b2'),
    pulseBackward: v('--grad', '#cc79a7'),
    current: v('--current', '#111'),
    linked: v('--linked', '#e69f00'),
    gradientText: v('--grad-text', '#a6447f'),
    error: v('--error', '#b3261e'),
    ok: v('--ok', '#00795a'),
    roles: ROLES.map((r) => v(`--role-${r}`, '#888')),
    fills: ROLES.map((r) => v(`--role-${r}-fill`, '#eee')),
  };
}
