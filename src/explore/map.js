/**
 * The map, with Leaflet (loaded as `L` by vendor/leaflet.js before the page's modules run).
 * Results are numbered markers matching the list; a selected result's service areas are drawn as
 * their GeoJSON shapes. The base map's tiles come from the configured URL; without one (or when
 * the tiles cannot be fetched, as on a machine without the internet) points and shapes still draw
 * on the plain background.
 */
const { L } = globalThis;

const ABERDEEN = [57.15, -2.1];

export function createMap(element, settings, { onSelect } = {}) {
  const map = L.map(element, { keyboard: true, scrollWheelZoom: false }).setView(ABERDEEN, 11);
  if (settings?.tileUrl) {
    L.tileLayer(settings.tileUrl, { attribution: settings.tileAttribution, maxZoom: 19 }).addTo(map);
  }
  L.control.scale({ imperial: false }).addTo(map);
  const markers = L.featureGroup().addTo(map);
  const areas = L.featureGroup().addTo(map);
  const byId = new Map();

  return {
    /** One marker per result with a place: `{ id, number, name, lat, lon }`. */
    showResults(results) {
      markers.clearLayers();
      byId.clear();
      for (const result of results) {
        const marker = L.marker([result.lat, result.lon], {
          title: `${result.number}. ${result.name}`,
          icon: L.divIcon({
            className: 'result-marker',
            html: String(result.number),
            iconSize: [28, 28],
            iconAnchor: [14, 14],
          }),
          keyboard: true,
          riseOnHover: true,
        });
        marker.on('click', () => onSelect?.(result.id));
        marker.addTo(markers);
        byId.set(result.id, marker);
      }
      if (results.length > 0) map.fitBounds(markers.getBounds(), { padding: [24, 24], maxZoom: 15 });
    },

    /**
     * Marks a result as selected and draws its areas (`[{ name, shape }]`); fits the map to the
     * areas and the result's marker. Returns the drawn areas' bounds, or undefined when none.
     */
    select(id, shapes) {
      for (const [markerId, marker] of byId) {
        marker.getElement()?.classList.toggle('selected', markerId === id);
        marker.setZIndexOffset(markerId === id ? 1000 : 0);
      }
      areas.clearLayers();
      for (const { shape, name } of shapes) {
        L.geoJSON(shape, { style: { className: 'service-area', weight: 2 } })
          .bindTooltip(name || 'Service area', { sticky: true })
          .addTo(areas);
      }
      const marker = byId.get(id);
      const drawn = areas.getLayers().length > 0 ? areas.getBounds() : undefined;
      const focus = drawn ? L.latLngBounds(drawn.getSouthWest(), drawn.getNorthEast()) : undefined;
      if (focus && marker) focus.extend(marker.getLatLng());
      if (focus?.isValid()) map.fitBounds(focus, { padding: [16, 16] });
      else if (marker) map.setView(marker.getLatLng(), Math.max(map.getZoom(), 14));
      return drawn;
    },

    /** Places (a record's locations) as plain markers. */
    showPlaces(places) {
      this.showResults(places);
    },

    invalidate() {
      map.invalidateSize();
    },
  };
}
