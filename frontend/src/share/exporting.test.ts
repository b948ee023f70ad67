import { describe, expect, it } from 'vitest';
import { fixtures } from '../testing/fixtures';
import { readEmbeddedLesson, scriptJson, standaloneHtml, traceFileName } from './exporting';

/** A Document stand-in (tests run in node): getElementById over the page's <script> elements. */
function doc(page: string): Document {
  return {
    getElementById: (id: string) => {
      const m = new RegExp(`<script id="${id}"[^>]*>([\\s\\S]*?)</script>`).exec(page);
      return m ? { textContent: m[1] } : null;
    },
  } as unknown as Document;
}

const template =
  '<!doctype html><html><head><title>gradtrace</title></head><body><script id="gradtrace-trace" type="application/json">__GRADTRACE_TRACE__</script></body></html>';

describe('standalone export', () => {
  it('puts the trace in the template, safe inside <script>', () => {
    const trace = { ...fixtures.leaf, stdout: '</script><!-- & \u2028' };
    const page = standaloneHtml(template, trace, 'Leaf <1>');
    expect(page).not.toContain('__GRADTRACE_TRACE__');
    expect(page.match(/<\/script>/g)).toHaveLength(1);
    const json = /<script id="gradtrace-trace" type="application\/json">([\s\S]*)<\/script>/.exec(page)![1]!;
    expect(JSON.parse(json).stdout).toBe('</script><!-- & \u2028');
    expect(page).toContain('<title>Leaf &#60;1&#62; · gradtrace</title>');
    expect(scriptJson({ a: '$&' })).toBe('{"a":"$\\u0026"}');
  });
  it('carries the program, the lesson and the captions next to the trace, safely', () => {
    const lesson = {
      title: 'Leaf </script>',
      text: 'Two paths.',
      source: 'y = x + 1  # </script>\n',
      captions: [[7, 'Backward starts & 1'] as [number, string]],
      torchviz: true,
    };
    const page = standaloneHtml(template, fixtures.leaf, 'Leaf', lesson);
    expect(page.match(/<\/script>/g)).toHaveLength(2);
    expect(readEmbeddedLesson(doc(page))).toEqual(lesson);
    expect(readEmbeddedLesson(doc(standaloneHtml(template, fixtures.leaf)))).toBeNull();
  });
  it('names files after the root', () => {
    expect(traceFileName(fixtures.leaf)).toBe('gradtrace-loss');
  });
});
