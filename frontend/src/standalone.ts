// The standalone player: one HTML file that plays the trace inside it, with no
// server and no network (built by vite.standalone.config.ts).
import { mount } from 'svelte';
import Standalone from './Standalone.svelte';
import './app.css';

const target = document.getElementById('app');
if (!target) throw new Error('no #app element');
export default mount(Standalone, { target });
