/**
 * The /explore page: `?service=<id>` shows one service's record, anything else is the search.
 */
import { showRecordPage } from './record.js';
import { showSearchPage } from './search.js';

const root = document.getElementById('main');
const params = new URLSearchParams(location.search);
const id = params.get('service');
if (id) showRecordPage(root, id);
else showSearchPage(root, params);
