// The lesson on screen: an example's title and text, with the program it goes with.
import type { Example } from '../api/types';

export interface Lesson {
  id: string;
  title: string;
  text: string;
  /** The example's program: the lesson is the page's while the editor holds it unchanged. */
  source: string;
}

export function lessonOf(ex: Example): Lesson {
  return { id: ex.id, title: ex.title, text: ex.lesson ?? ex.summary, source: ex.source };
}
