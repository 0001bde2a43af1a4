/* The site picker of the new-filing and apply forms (site_picker.html):
   finds the assessors' parcel by address or map-lot id in the town the
   form names, and fills the site address, the parcel and the owner.  A
   site that matches no parcel may still be filed: the note says so. */
(function () {
  "use strict";

  function start() {
    var box = document.getElementById("site-picker");
    if (!box) return;
    var form = box.closest("form");
    var input = document.getElementById("site-search");
    var list = document.getElementById("site-results");
    var note = document.getElementById("site-note");
    var timer = null, asked = 0;
    box.hidden = false;

    function town() {
      var t = form.querySelector("[name=town]");
      return t ? t.value : "";
    }

    function set(name, value) {
      var el = form.querySelector("[name=" + name + "]");
      if (el && value !== undefined && value !== null) el.value = value;
    }

    function words(text) {  /* "40 WASHINGTON ST" as people write it: "40 Washington St" */
      return text.toLowerCase().replace(/\b([a-z])/g, function (c) { return c.toUpperCase(); });
    }

    function fill(p) {
      set("address", words(p.site_addr || ""));
      set("parcel", p.map_par_id || p.loc_id);
      if (p.owner) {
        set("owner_name", p.owner.name);
        set("owner_street", words(p.owner.street));
        set("owner_city", words(p.owner.city));
        set("owner_state", p.owner.state);
        set("owner_zip", p.owner.zip);
      }
      list.replaceChildren();
      note.textContent = "Filled from parcel " + (p.map_par_id || p.loc_id) +
        (p.owners > 1 ? " (" + p.owners + " owners on record; the first is filled in)" : "") +
        ": check the address and the owner before you send the form.";
    }

    function show(data) {
      list.replaceChildren();
      if (!data.fiscal_year) {
        note.textContent = "No assessors' parcels are imported for " + data.town + ": type the site yourself.";
        return;
      }
      if (!data.parcels.length) {
        note.textContent = "No parcel of the assessors' FY" + data.fiscal_year + " parcels matches: you may still type the site " +
          "yourself; the filing will say that its site matches no parcel.";
        return;
      }
      note.textContent = data.parcels.length + " parcel(s) of the assessors' FY" + data.fiscal_year + " parcels: choose one.";
      data.parcels.forEach(function (p) {
        var li = document.createElement("li");
        var b = document.createElement("button");
        b.type = "button";
        b.className = "pick";
        b.textContent = (p.map_par_id || p.loc_id) + ": " + (p.site_addr || "(no site address)") + (p.owner ? ", " + p.owner.name : "");
        b.addEventListener("click", function () { fill(p); });
        li.appendChild(b);
        list.appendChild(li);
      });
    }

    function search() {
      var q = input.value.trim();
      if (q.length < 2 || !town()) { list.replaceChildren(); return; }
      var mine = ++asked;
      var url = box.dataset.findUrl + "?" + new URLSearchParams({ town: town(), q: q }).toString();
      fetch(url, { credentials: "same-origin", headers: { "Accept": "application/json" } })
        .then(function (r) { if (!r.ok) throw new Error(String(r.status)); return r.json(); })
        .then(function (data) { if (mine === asked) show(data); })
        .catch(function () { if (mine === asked) note.textContent = "The parcels could not be searched: type the site yourself."; });
    }

    input.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(search, 250); });
    input.addEventListener("keydown", function (e) { if (e.key === "Enter") { e.preventDefault(); search(); } });
    var t = form.querySelector("[name=town]");
    if (t) t.addEventListener("change", search);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
