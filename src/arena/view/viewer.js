/*
 * The game browser of a page written by `norn view`. The page judges no
 * move: every picture was computed when the page was written, and this
 * script only swaps the contents of a picture's slots.
 *
 * Ids and classes a test may drive (stable):
 *   #game-list        <tbody>: one <tr data-index="I"> per shown game, I the
 *                     game's key (a tournament's game index in the
 *                     schedule; a win-rate run's games numbered in the
 *                     order of the list); clicking a row opens it.
 *                     At most 500 rows at a time: #list-prev and #list-next
 *                     (hidden when all fit) page through the rest, and
 *                     #list-range says which are shown
 *   #game-count       "N of M games": N the games the filters let through
 *   #filter-agent     <select>: "" any, else an agent's name (either side)
 *   #filter-side      <select>: "" any, else a seat number (0 first); with
 *                     an agent chosen, the side that agent played, else the
 *                     filter has no effect (hidden with one column of
 *                     agents, a team's policy)
 *   #filter-result    <select>: "" any, else a result's number: in a
 *                     tournament "0"/"1" the side of that seat won, "2" a
 *                     draw; in a win-rate run "0" won, "1" lost
 *   #filter-reason    <select>: "" any, else an end reason
 *   #first #prev #next #last   buttons stepping through the open game
 *   #ply              the number of plies played in the shown position
 *   #position-text    read-only field: the shown position's text
 *   #copy-position    button copying that text
 *   #move-list        one <li data-ply="K"> per ply (K from 1); clicking
 *                     shows the position after it; the shown one has
 *                     class "current"
 *   #viewer           <select>, for pictures with hidden slots: "all" or a
 *                     player's number
 *   #board            the <svg> of the shown position; rects of class
 *                     "mark-move" and "mark-capture" mark what the last ply
 *                     changed
 *   #game-title       the open game's heading
 * Arrow keys left/right step back and forth, Home and End jump to the ends.
 * The page's address keeps the open game and ply (#game=I&ply=K).
 */
(function () {
  'use strict';
  const byId = (id) => document.getElementById(id);
  const data = JSON.parse(byId('view-data').textContent);
  const layouts = JSON.parse(byId('layouts').textContent);
  const packed = byId('game-data').textContent.trim().split('\n');
  const games = data.games; // [key, agent 0, agent 1, result, reason, plies, number]
  const place = new Map(games.map((game, at) => [game[0], at]));
  const list = byId('game-list');
  let open = null; // {index, states, moves, texts}
  let ply = 0;
  let drawnLayout = -1;
  let opening = 0;

  const escape = (text) => String(text).replace(/[&<>"']/g, (c) => '&#' + c.charCodeAt(0) + ';');
  const resultText = (result) => data.results[result];
  const team = data.columns.length === 1;

  function fillSelect(id, options) {
    const select = byId(id);
    if (!select) return;
    select.innerHTML = '<option value="">any</option>' +
      options.map(([value, label]) => '<option value="' + escape(value) + '">' + escape(label) + '</option>').join('');
    select.addEventListener('change', showList);
  }

  function shownGames() {
    const agent = byId('filter-agent').value;
    const side = byId('filter-side').value;
    const result = byId('filter-result').value;
    const reason = byId('filter-reason').value;
    return games.filter((game) => {
      if (agent !== '') {
        const seats = [data.agents[game[1]], data.agents[game[2]]];
        if (side !== '' ? seats[+side] !== agent : !seats.includes(agent)) return false;
      }
      if (result !== '' && String(game[3]) !== result) return false;
      if (reason !== '' && data.reasons[game[4]] !== reason) return false;
      return true;
    });
  }

  // A long list is shown a page at a time: a table of ten thousand rows
  // takes the browser seconds to lay out.
  const PAGE = 500;
  let listPage = 0;

  function showList(event) {
    if (event) listPage = 0;
    const shown = shownGames();
    listPage = Math.max(0, Math.min(listPage, Math.ceil(shown.length / PAGE) - 1));
    const from = listPage * PAGE;
    const page = shown.slice(from, from + PAGE);
    byId('list-range').textContent = shown.length > PAGE ? 'showing ' + (from + 1) + '-' + (from + page.length) : '';
    byId('list-prev').hidden = byId('list-next').hidden = shown.length <= PAGE;
    list.innerHTML = page.map((game) =>
      '<tr data-index="' + game[0] + '"' + (open && open.index === game[0] ? ' class="selected"' : '') + '><td class="num">' + game[6] +
      '</td><td>' + escape(data.agents[game[1]]) + (team ? '' : '</td><td>' + escape(data.agents[game[2]])) +
      '</td><td>' + escape(resultText(game[3])) + '</td><td>' + escape(data.reasons[game[4]]) +
      '</td><td class="num">' + game[5] + '</td></tr>').join('');
    byId('game-count').textContent = shown.length + ' of ' + games.length + ' games';
  }

  async function inflate(text) {
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate'));
    return JSON.parse(await new Response(stream).text());
  }

  // Every ply's slot contents, from the keyframes and the changes.
  function expand(game) {
    const states = [];
    let layout = -1;
    let contents = [];
    for (const frame of game.p) {
      if (frame.l !== undefined) {
        layout = frame.l;
        contents = frame.s.slice();
        states.push({ layout, contents, changed: [], captures: [] });
      } else {
        contents = contents.slice();
        const changed = [];
        for (let i = 0; i < frame.c.length; i += 2) {
          contents[frame.c[i]] = frame.c[i + 1];
          changed.push(frame.c[i]);
        }
        states.push({ layout, contents, changed, captures: frame.x || [] });
      }
    }
    return states;
  }

  async function openGame(index, atPly) {
    const at = place.get(index);
    if (at === undefined) return;
    const ticket = ++opening;
    const game = await inflate(packed[at]);
    if (ticket !== opening) return;
    open = { index, states: expand(game), moves: game.m, texts: game.t };
    const row = games[at];
    const who = team ? data.agents[row[1]] + ' ' + resultText(row[3]) :
      data.agents[row[1]] + ' (' + data.columns[0] + ') against ' + data.agents[row[2]] + ' (' + data.columns[1] + '), ' + resultText(row[3]);
    byId('game-title').textContent = data.label.charAt(0).toUpperCase() + data.label.slice(1) + ' ' + row[6] + ': ' + who +
      ' by ' + data.reasons[row[4]] + ' after ' + row[5] + ' plies';
    byId('move-list').innerHTML = open.moves.map((move, k) =>
      '<li data-ply="' + (k + 1) + '">' + escape(move) + '</li>').join('');
    for (const tr of list.querySelectorAll('tr.selected')) tr.classList.remove('selected');
    const tr = list.querySelector('tr[data-index="' + index + '"]');
    if (tr) tr.classList.add('selected');
    drawnLayout = -1;
    show(Math.min(atPly || 0, open.states.length - 1));
  }

  // What the chosen viewer sees in a slot, as Slot::content_for has it.
  function seen(code, owner) {
    const viewer = byId('viewer').value;
    if (owner === null || viewer === 'all' || +viewer === owner || code === '') return code;
    return '#hidden';
  }

  function drawLayout(number) {
    const layout = layouts[number];
    const names = layout.s.map((s) => '<rect x="' + s[1] + '" y="' + s[2] + '" width="' + s[3] + '" height="' + s[4] +
      '" fill="transparent"><title>' + escape(s[0]) + '</title></rect>').join('');
    byId('board-box').innerHTML = '<svg id="board" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ' + layout.w + ' ' + layout.h +
      '" width="' + layout.w + '" height="' + layout.h + '" font-family="sans-serif">' + layout.f +
      '<g class="slots"></g><g class="marks"></g><g class="names">' + names + '</g></svg>';
    drawnLayout = number;
    const hidden = layout.s.some((s) => s[5] !== null);
    byId('viewer-box').hidden = !hidden;
  }

  function slotMarkup(slot, code) {
    const [x, y, w, h] = [slot[1], slot[2], slot[3], slot[4]];
    if (code.startsWith('#')) {
      return '<use href="#' + escape(code.slice(1)) + '" x="' + x + '" y="' + y + '" width="' + w + '" height="' + h + '"/>';
    }
    if (code.startsWith('=')) {
      return '<text x="' + (x + w / 2) + '" y="' + (y + h / 2) + '" font-size="' + Math.min(h * 0.7, 24) +
        '" text-anchor="middle" dominant-baseline="central">' + escape(code.slice(1)) + '</text>';
    }
    return '';
  }

  function show(k) {
    if (!open) return;
    ply = Math.max(0, Math.min(k, open.states.length - 1));
    const state = open.states[ply];
    if (state.layout !== drawnLayout) drawLayout(state.layout);
    const slots = layouts[state.layout].s;
    const board = byId('board');
    board.querySelector('g.slots').innerHTML = state.contents.map((code, i) => slotMarkup(slots[i], seen(code, slots[i][5]))).join('');
    const mark = (i, kind) => '<rect class="' + kind + '" x="' + slots[i][1] + '" y="' + slots[i][2] + '" width="' + slots[i][3] + '" height="' + slots[i][4] + '"/>';
    board.querySelector('g.marks').innerHTML =
      state.changed.filter((i) => !state.captures.includes(i)).map((i) => mark(i, 'mark-move')).join('') +
      state.captures.map((i) => mark(i, 'mark-capture')).join('');
    byId('ply').textContent = String(ply);
    byId('position-text').value = open.texts[ply];
    for (const li of byId('move-list').querySelectorAll('li.current')) li.classList.remove('current');
    const li = byId('move-list').querySelector('li[data-ply="' + ply + '"]');
    if (li) {
      li.classList.add('current');
      // Scroll the list alone, not the page.
      const box = byId('move-list');
      if (li.offsetTop < box.scrollTop || li.offsetTop + li.offsetHeight > box.scrollTop + box.clientHeight) {
        box.scrollTop = li.offsetTop - box.clientHeight / 2;
      }
    }
    history.replaceState(null, '', '#game=' + open.index + '&ply=' + ply);
  }

  fillSelect('filter-agent', data.agents.map((agent) => [agent, agent]));
  fillSelect('filter-side', data.columns.map((side, seat) => [String(seat), side]));
  byId('side-box').hidden = team;
  fillSelect('filter-result', data.results.map((name, number) => [String(number), name]));
  fillSelect('filter-reason', data.reasons.map((reason) => [reason, reason]));
  const viewer = byId('viewer');
  viewer.innerHTML = '<option value="all">all</option>' +
    Array.from({ length: data.players }, (_, p) => '<option value="' + p + '">player ' + p + '</option>').join('');
  viewer.addEventListener('change', () => show(ply));
  list.addEventListener('click', (event) => {
    const tr = event.target.closest('tr[data-index]');
    if (tr) openGame(+tr.dataset.index, 0);
  });
  byId('move-list').addEventListener('click', (event) => {
    const li = event.target.closest('li[data-ply]');
    if (li) show(+li.dataset.ply);
  });
  byId('list-prev').addEventListener('click', () => { listPage--; showList(); });
  byId('list-next').addEventListener('click', () => { listPage++; showList(); });
  byId('first').addEventListener('click', () => show(0));
  byId('prev').addEventListener('click', () => show(ply - 1));
  byId('next').addEventListener('click', () => show(ply + 1));
  byId('last').addEventListener('click', () => show(Infinity));
  byId('copy-position').addEventListener('click', () => {
    const field = byId('position-text');
    const fallback = () => { field.select(); document.execCommand('copy'); };
    if (navigator.clipboard) navigator.clipboard.writeText(field.value).catch(fallback); else fallback();
  });
  document.addEventListener('keydown', (event) => {
    if (!open || (event.target instanceof Element && event.target.closest('input, select, textarea'))) return;
    const step = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: Infinity }[event.key];
    if (step === undefined) return;
    event.preventDefault();
    show(step);
  });

  showList();
  const wanted = /game=(\d+)(?:&ply=(\d+))?/.exec(location.hash);
  if (wanted && place.has(+wanted[1])) openGame(+wanted[1], +(wanted[2] || 0));
  else if (games.length > 0) openGame(games[0][0], 0);

  if (data.version !== null) {
    setInterval(() => {
      fetch('version', { cache: 'no-store' }).then((reply) => reply.text()).then((version) => {
        if (version.trim() !== String(data.version)) location.reload();
      }).catch(() => {});
    }, 2000);
  }
})();
