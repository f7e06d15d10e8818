import { mount } from 'svelte'
import './app.css'
import App from './App.svelte'
import { i18n } from './lib/i18n.svelte'

const target = document.getElementById('app')
if (!target) throw new Error('the page has no #app element')

// The remembered (or the browser's) language, for screen readers and hyphenation.
document.documentElement.lang = i18n.lang

export default mount(App, { target })
