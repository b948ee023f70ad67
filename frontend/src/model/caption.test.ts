import { describe, expect, it } from 'vitest';
import { oneLine } from './caption';

describe('step caption', () => {
  it('shows printed line breaks as ↵, never a literal "\\n"', () => {
    expect(oneLine('x.grad: tensor(4.)\nloss: tensor(1.)\n')).toBe('x.grad: tensor(4.) ↵ loss: tensor(1.)');
    expect(oneLine('a\n\nb')).not.toContain('\\n');
    expect(oneLine('x'.repeat(100)).length).toBe(60);
  });
});
