// Development page (`npm run dev`, then /fixtures.html): draws any board from the positions
// in web/fixtures/ (scripts/web-fixtures), without a server. Not part of the built client.
import { mount } from 'svelte'
import '../app.css'
import FixtureViewer from './FixtureViewer.svelte'

const target = document.getElementById('app')
if (!target) throw new Error('the page has no #app element')
mount(FixtureViewer, { target })
