/**
 * Sun position and clear-sky irradiance.
 * Position follows the NOAA solar calculator (Meeus-based, about 0.01° accuracy for 1800–2100),
 * which is far better than the simulator needs but costs nothing.
 */

export interface SolarPosition {
  /** Apparent elevation above the horizon, refraction included; negative below the horizon. */
  elevationDeg: number;
  /** Azimuth clockwise from true north: 90 east, 180 south, 270 west. */
  azimuthDeg: number;
}

const DEG = Math.PI / 180;
const sinD = (deg: number): number => Math.sin(deg * DEG);
const cosD = (deg: number): number => Math.cos(deg * DEG);
const tanD = (deg: number): number => Math.tan(deg * DEG);
const clamp = (value: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, value));
const mod = (value: number, m: number): number => ((value % m) + m) % m;

const MS_PER_DAY = 86_400_000;
const UNIX_EPOCH_JULIAN_DAY = 2_440_587.5;

// NOAA's atmospheric refraction approximation, in degrees, for a geometric elevation.
function refractionDeg(elevationDeg: number): number {
  if (elevationDeg > 85) return 0;
  const te = tanD(elevationDeg);
  if (elevationDeg > 5) return (58.1 / te - 0.07 / te ** 3 + 0.000086 / te ** 5) / 3600;
  if (elevationDeg > -0.575) {
    const e = elevationDeg;
    return (1735 + e * (-518.2 + e * (103.4 + e * (-12.79 + e * 0.711)))) / 3600;
  }
  return -20.772 / te / 3600;
}

export function solarPosition(date: Date, latitude: number, longitude: number): SolarPosition {
  const ms = date.getTime();
  if (!Number.isFinite(ms)) throw new RangeError('solarPosition: invalid date');
  if (!(latitude >= -90 && latitude <= 90)) throw new RangeError(`latitude out of range: ${latitude}`);
  if (!Number.isFinite(longitude)) throw new RangeError(`longitude must be finite: ${longitude}`);

  const julianDay = ms / MS_PER_DAY + UNIX_EPOCH_JULIAN_DAY;
  const t = (julianDay - 2_451_545) / 36_525; // Julian centuries since J2000.0

  const meanLongitude = mod(280.46646 + t * (36000.76983 + t * 0.0003032), 360);
  const meanAnomaly = 357.52911 + t * (35999.05029 - 0.0001537 * t);
  const eccentricity = 0.016708634 - t * (0.000042037 + 0.0000001267 * t);
  const centre =
    sinD(meanAnomaly) * (1.914602 - t * (0.004817 + 0.000014 * t)) +
    sinD(2 * meanAnomaly) * (0.019993 - 0.000101 * t) +
    sinD(3 * meanAnomaly) * 0.000289;
  const trueLongitude = meanLongitude + centre;
  const omega = 125.04 - 1934.136 * t;
  const apparentLongitude = trueLongitude - 0.00569 - 0.00478 * sinD(omega);
  const meanObliquity = 23 + (26 + (21.448 - t * (46.815 + t * (0.00059 - t * 0.001813))) / 60) / 60;
  const obliquity = meanObliquity + 0.00256 * cosD(omega);
  const declination = Math.asin(clamp(sinD(obliquity) * sinD(apparentLongitude), -1, 1)) / DEG;

  const y = tanD(obliquity / 2) ** 2;
  const equationOfTimeMin =
    (4 / DEG) *
    (y * sinD(2 * meanLongitude) -
      2 * eccentricity * sinD(meanAnomaly) +
      4 * eccentricity * y * sinD(meanAnomaly) * cosD(2 * meanLongitude) -
      0.5 * y * y * sinD(4 * meanLongitude) -
      1.25 * eccentricity * eccentricity * sinD(2 * meanAnomaly));

  // Working in UTC, so no time-zone offset term: minutes since UTC midnight.
  const utcMinutes = mod(ms, MS_PER_DAY) / 60_000;
  const trueSolarMinutes = mod(utcMinutes + equationOfTimeMin + 4 * longitude, 1440);
  const hourAngle = trueSolarMinutes / 4 - 180; // degrees, negative in the morning

  const cosZenith = clamp(sinD(latitude) * sinD(declination) + cosD(latitude) * cosD(declination) * cosD(hourAngle), -1, 1);
  const geometricElevation = 90 - Math.acos(cosZenith) / DEG;

  // atan2 form instead of NOAA's acos form: no division by zero at the zenith or at the poles.
  const azimuthDeg = mod(
    Math.atan2(sinD(hourAngle), cosD(hourAngle) * sinD(latitude) - tanD(declination) * cosD(latitude)) / DEG + 180,
    360,
  );

  return { elevationDeg: geometricElevation + refractionDeg(geometricElevation), azimuthDeg };
}

/**
 * Clear-sky global horizontal irradiance, Haurwitz model: needs only the sun elevation,
 * peaks near 1040 W/m² with the sun at the zenith, and is 0 with the sun below the horizon.
 */
export function clearSkyGhi(elevationDeg: number): number {
  if (!(elevationDeg > 0)) return 0;
  const cosZenith = sinD(Math.min(elevationDeg, 90));
  return 1098 * cosZenith * Math.exp(-0.057 / cosZenith);
}

export interface PlaneOfArrayOptions {
  /**
   * Share of GHI that is diffuse (0..1). Default: estimated from how far GHI falls below the
   * clear-sky value, since clouds turn beam light into diffuse light.
   */
  diffuseFraction?: number | undefined;
  /** Ground reflectance; 0.2 is the usual value for grass and concrete. */
  albedo?: number | undefined;
}

// Physical ceiling for direct normal irradiance at the ground; also stops beam/sin(elevation) from
// exploding when the sun is on the horizon.
const MAX_DNI = 1100;

/** Diffuse fraction of GHI: about 15 % under a clear sky, 100 % under thick overcast. */
export function estimateDiffuseFraction(ghi: number, elevationDeg: number): number {
  const clear = clearSkyGhi(elevationDeg);
  if (clear <= 0 || ghi <= 0) return 1;
  const clearSkyIndex = clamp(ghi / clear, 0, 1);
  // Low sun travels through more air, so even a clear sky is more diffuse near the horizon.
  const clearDiffuse = clamp(0.12 + 0.25 * Math.exp(-elevationDeg / 12), 0.12, 0.4);
  return clamp(clearDiffuse + (1 - clearDiffuse) * (1 - clearSkyIndex) ** 1.3, clearDiffuse, 1);
}

/**
 * Irradiance on a tilted panel (W/m²) by isotropic-sky transposition: beam projected on the panel,
 * diffuse sky weighted by the visible sky dome, ground reflection by the visible ground.
 * Panel azimuth uses the same convention as the sun (180 = facing south). Never negative.
 */
export function planeOfArray(
  ghi: number,
  elevationDeg: number,
  azimuthDeg: number,
  tiltDeg: number,
  panelAzimuthDeg: number,
  options: PlaneOfArrayOptions = {},
): number {
  if (!(ghi > 0) || !Number.isFinite(ghi)) return 0;
  const tilt = clamp(tiltDeg, 0, 180);
  const albedo = clamp(options.albedo ?? 0.2, 0, 1);
  const diffuseFraction = clamp(options.diffuseFraction ?? estimateDiffuseFraction(ghi, elevationDeg), 0, 1);

  const dhi = ghi * diffuseFraction;
  const beamHorizontal = ghi - dhi;
  const sinElevation = sinD(clamp(elevationDeg, -90, 90));
  let beam = 0;
  // sinElevation can underflow to 0 for a sun grazing the horizon: no beam then, not 0/0.
  if (sinElevation > 0 && beamHorizontal > 0) {
    const dni = Math.min(beamHorizontal / sinElevation, MAX_DNI);
    const zenith = 90 - elevationDeg;
    const cosIncidence = cosD(zenith) * cosD(tilt) + sinD(zenith) * sinD(tilt) * cosD(azimuthDeg - panelAzimuthDeg);
    // Sun behind the panel: no beam, not negative beam.
    beam = dni * Math.max(0, cosIncidence);
  }
  const skyDiffuse = (dhi * (1 + cosD(tilt))) / 2;
  const groundReflected = (ghi * albedo * (1 - cosD(tilt))) / 2;
  return Math.max(0, beam + skyDiffuse + groundReflected);
}
