import { render } from 'preact';
import { App } from './app';
import { applyTheme } from './components/theme-toggle';
import './styles.css';

applyTheme();
const root = document.getElementById('app');
if (root !== null) render(<App />, root);
