import { describe, expect, it } from 'vitest';
import { fixtures } from '../testing/fixtures';
import { scriptJson, standaloneHtml, traceFileName } from './exporting';

const template = '<!doctype html><html><head><title>gradtrace</title></head><body><script id="gradtrace-trace" type="application/json">__GRADTRACE_TRACE__</script></body></html>';

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
  it('names files after the root', () => {
    expect(traceFileName(fixtures.leaf)).toBe('gradtrace-loss');
  });
});
