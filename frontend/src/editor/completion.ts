// Autocomplete from GET /api/reference: dotted names (torch.matmul, F.relu) by their
// full prefix, methods and attributes by the part after any dot (x.back → backward).
import type { Completion, CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import type { ReferenceEntry } from '../api/types';

const TYPE: Record<string, string> = {
  module: 'namespace',
  function: 'function',
  class: 'class',
  method: 'method',
  attribute: 'property',
  builtin: 'function',
  keyword: 'keyword',
};

export function referenceCompletions(entries: readonly ReferenceEntry[]) {
  const full: Completion[] = [];
  const members = new Map<string, Completion>();
  for (const e of entries) {
    const type = TYPE[e.kind] ?? 'variable';
    const detail = e.detail ?? undefined;
    if (e.kind === 'method' || e.kind === 'attribute') {
      const last = e.name.slice(e.name.lastIndexOf('.') + 1);
      if (!members.has(last)) members.set(last, { label: last, type, detail, boost: e.kind === 'method' ? 1 : 0 });
    } else full.push({ label: e.name, type, detail });
  }
  const memberList = [...members.values()];

  return (context: CompletionContext): CompletionResult | null => {
    const word = context.matchBefore(/[A-Za-z_][\w.]*/);
    if (!word || (word.from === word.to && !context.explicit)) return null;
    const text = word.text;
    const dot = text.lastIndexOf('.');
    if (dot < 0) {
      return { from: word.from, options: full.filter((c) => !c.label.includes('.')), validFor: /^\w*$/ };
    }
    // A dotted prefix: complete known dotted names, else members of any object.
    const head = text.slice(0, dot + 1);
    const dotted = full
      .filter((c) => c.label.startsWith(head) && !c.label.slice(head.length).includes('.'))
      .map((c) => ({ ...c, label: c.label.slice(head.length) }));
    return { from: word.from + dot + 1, options: dotted.length > 0 ? dotted : memberList, validFor: /^\w*$/ };
  };
}
