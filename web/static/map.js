/* The workbench's maps (web/staff/map_pages.py): Leaflet over the GeoJSON the
   workbench serves.  Every setting comes from the map element's data-
   attributes; nothing here is inline in a page, and nothing is fetched
   from anywhere but the workbench (and the town's own tile server, when
   PERMITS_MAP_TILES_URL names one). */
(function () {
  "use strict";

  var KIND_COLOURS = {
    "noi": "#1f6f8b",
    "rda": "#7b4fa3",
    "land-disturbance": "#8a5a00",
    "street-opening": "#2f6b2f"
  };
  var OVERDUE = "#b00020";
  var OUTLINE_ZOOM = 15;     /* parcels.geo.OUTLINE_ZOOM: outlines from here, points below */
  var BACKGROUND_ZOOM = 16;  /* parcels.geo.BACKGROUND_ZOOM: the parcels in view drawn behind */
  var MASSACHUSETTS = [[41.2, -73.5], [42.9, -69.9]];

  function baseMap(el) {
    var map = L.map(el, { zoomSnap: 1, minZoom: 7, maxZoom: 20 });
    if (el.dataset.tiles) {
      L.tileLayer(el.dataset.tiles, { maxZoom: 20, attribution: el.dataset.attribution || "" }).addTo(map);
    } else {
      map.attributionControl.setPrefix("");
    }
    map.fitBounds(MASSACHUSETTS);
    return map;
  }

  function filingStyle(feature) {
    var p = feature.properties;
    var colour = KIND_COLOURS[p.kind] || "#444";
    return {
      color: p.status === "overdue" ? OVERDUE : colour,
      weight: p.status === "overdue" ? 4 : 2,
      fillColor: colour,
      fillOpacity: p.status === "none" ? 0.15 : 0.45,
      opacity: p.status === "none" ? 0.5 : 1,
      dashArray: p.status === "none" ? "4 4" : null
    };
  }

  function statusWords(p) {
    if (p.status === "overdue") return "a deadline is overdue";
    if (p.status === "due") return "a deadline to act on";
    return "no deadline to act on";
  }

  function popup(p) {
    var box = document.createElement("div");
    var link = document.createElement("a");
    link.href = p.url;
    link.textContent = p.id;
    link.className = "map-filing";
    box.appendChild(link);
    [p.kind_label, p.site + (p.parcel ? " (parcel " + p.parcel + ")" : ""), p.state, statusWords(p)].forEach(function (line) {
      var row = document.createElement("div");
      row.textContent = line;
      box.appendChild(row);
    });
    return box;
  }

  function listItem(p) {
    var li = document.createElement("li");
    li.className = "status-" + p.status;
    var link = document.createElement("a");
    link.href = p.url;
    link.textContent = p.id;
    li.appendChild(link);
    li.appendChild(document.createTextNode(" " + p.kind_label + ", " + p.site + ": " + p.state + " (" + statusWords(p) + ")"));
    return li;
  }

  function withParams(url, params) {
    var u = new URL(url, window.location.href);
    Object.keys(params).forEach(function (k) { u.searchParams.set(k, params[k]); });
    return u.pathname + u.search;
  }

  function getJSON(url) {
    return fetch(url, { credentials: "same-origin", headers: { "Accept": "application/geo+json" } }).then(function (r) {
      if (!r.ok) throw new Error("the workbench answered " + r.status);
      return r.json().then(function (data) { return { data: data, headers: r.headers }; });
    });
  }

  function filingsMap(el) {
    var map = baseMap(el);
    var count = document.getElementById("map-count");
    var list = document.getElementById("map-list");
    var filings = null, background = null, drawnAt = null, first = true;

    function loadFilings() {
      var zoom = map.getZoom();
      var outline = zoom >= OUTLINE_ZOOM;
      if (drawnAt !== null && (drawnAt >= OUTLINE_ZOOM) === outline && (!outline || drawnAt === zoom)) return;
      drawnAt = zoom;
      getJSON(withParams(el.dataset.features, { zoom: String(zoom) })).then(function (got) {
        if (filings) map.removeLayer(filings);
        filings = L.geoJSON(got.data, {
          style: filingStyle,
          pointToLayer: function (feature, latlng) {
            return L.circleMarker(latlng, Object.assign(filingStyle(feature), { radius: 7 }));
          },
          onEachFeature: function (feature, layer) { layer.bindPopup(popup(feature.properties)); }
        }).addTo(map);
        var drawn = got.data.features.length;
        var unplaced = Number(got.headers.get("X-Filings-Unplaced") || 0);
        count.textContent = drawn + " filing(s) on the map" +
          (unplaced ? "; " + unplaced + " matching filing(s) name no parcel found among the assessors' parcels" : "") +
          (got.headers.get("X-Filings-Truncated") ? "; more match than the map draws: narrow the search" : "") + ".";
        list.replaceChildren.apply(list, got.data.features.map(function (f) { return listItem(f.properties); }));
        if (first && drawn) {
          first = false;
          map.fitBounds(filings.getBounds(), { maxZoom: 17, padding: [20, 20] });
        }
      }).catch(function (err) { count.textContent = "The filings could not be loaded: " + err.message + "."; });
    }

    function loadBackground() {
      if (el.dataset.tiles || !el.dataset.background) return;
      if (map.getZoom() < BACKGROUND_ZOOM) {
        if (background) { map.removeLayer(background); background = null; }
        return;
      }
      var b = map.getBounds();
      var bbox = [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()].map(function (v) { return v.toFixed(6); }).join(",");
      getJSON(withParams(el.dataset.background, { bbox: bbox, zoom: String(map.getZoom()) })).then(function (got) {
        if (background) map.removeLayer(background);
        background = L.geoJSON(got.data, {
          interactive: false,
          style: function (f) {
            var t = f.properties.type;
            if (t === "WATER") return { color: "#6a9fc9", weight: 1, fillColor: "#cfe3f3", fillOpacity: 0.8 };
            if (t === "ROW" || t === "PRIV_ROW") return { color: "#bbb", weight: 1, fillColor: "#f2f2f2", fillOpacity: 0.8 };
            return { color: "#999", weight: 1, fillOpacity: 0 };
          }
        }).addTo(map);
        background.bringToBack();
      }).catch(function () { /* the background is a courtesy: the filings stand without it */ });
    }

    map.on("moveend", function () { loadFilings(); loadBackground(); });
    loadFilings();
  }

  function filingMap(el) {
    var map = baseMap(el);
    getJSON(el.dataset.features).then(function (got) {
      var layer = L.geoJSON(got.data, {
        style: function (f) {
          return f.properties.role === "site"
            ? { color: "#1f3a5f", weight: 3, fillColor: "#1f3a5f", fillOpacity: 0.35 }
            : { color: "#8a5a00", weight: 1, fillColor: "#f0c36d", fillOpacity: 0.35 };
        },
        onEachFeature: function (f, l) {
          l.bindTooltip((f.properties.role === "site" ? "the site, parcel " : "abutter, parcel ") + f.properties.label);
        }
      }).addTo(map);
      if (got.data.features.length) map.fitBounds(layer.getBounds(), { maxZoom: 19, padding: [10, 10] });
    }).catch(function () { el.textContent = "The parcel map could not be loaded."; });
  }

  function start() {
    if (typeof L === "undefined") return;
    document.querySelectorAll("[data-map]").forEach(function (el) {
      if (el.dataset.map === "filings") filingsMap(el);
      else if (el.dataset.map === "filing") filingMap(el);
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
