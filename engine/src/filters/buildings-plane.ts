/**
 * Smallest eigenvalue of the symmetric 3×3 matrix [[xx, xy, xz], [xy, yy, yz],
 * [xz, yz, zz]] (a covariance) and its unit eigenvector, written to `normal`
 * with a non-negative z: for the covariance of points, the variance across
 * their best-fitting plane and that plane's upward normal.
 *
 * Closed form (trigonometric solution of the characteristic cubic), so it
 * costs a few dozen flops and no iteration.
 *
 * @example
 * const normal = new Float64Array(3);
 * const variance = smallestEigen(cxx, cxy, cxz, cyy, cyz, czz, normal); // RMS = Math.sqrt(variance)
 */
export function smallestEigen(
  xx: number,
  xy: number,
  xz: number,
  yy: number,
  yz: number,
  zz: number,
  normal: Float64Array,
): number {
  const off = xy * xy + xz * xz + yz * yz;
  const q = (xx + yy + zz) / 3;
  const p = Math.sqrt(((xx - q) ** 2 + (yy - q) ** 2 + (zz - q) ** 2 + 2 * off) / 6);
  let lambda = q;
  if (p > 1e-15) {
    const ip = 1 / p;
    const a = (xx - q) * ip;
    const d = (yy - q) * ip;
    const f = (zz - q) * ip;
    const b = xy * ip;
    const c = xz * ip;
    const e = yz * ip;
    let r = (a * (d * f - e * e) - b * (b * f - e * c) + c * (b * e - d * c)) / 2;
    r = r <= -1 ? -1 : r >= 1 ? 1 : r;
    lambda = q + 2 * p * Math.cos(Math.acos(r) / 3 + (2 * Math.PI) / 3);
  }
  // The eigenvector is orthogonal to the rows of (M - λI): the largest cross product of two rows.
  const ax = xx - lambda;
  const by = yy - lambda;
  const cz = zz - lambda;
  const u1x = xy * yz - xz * by;
  const u1y = xz * xy - ax * yz;
  const u1z = ax * by - xy * xy;
  const u2x = xy * cz - xz * yz;
  const u2y = xz * xz - ax * cz;
  const u2z = ax * yz - xy * xz;
  const u3x = by * cz - yz * yz;
  const u3y = yz * xz - xy * cz;
  const u3z = xy * yz - by * xz;
  const n1 = u1x * u1x + u1y * u1y + u1z * u1z;
  const n2 = u2x * u2x + u2y * u2y + u2z * u2z;
  const n3 = u3x * u3x + u3y * u3y + u3z * u3z;
  let vx = u1x;
  let vy = u1y;
  let vz = u1z;
  let nn = n1;
  if (n2 > nn) {
    vx = u2x;
    vy = u2y;
    vz = u2z;
    nn = n2;
  }
  if (n3 > nn) {
    vx = u3x;
    vy = u3y;
    vz = u3z;
    nn = n3;
  }
  if (nn > 0) {
    const s = (vz < 0 ? -1 : 1) / Math.sqrt(nn);
    normal[0] = vx * s;
    normal[1] = vy * s;
    normal[2] = vz * s;
  } else {
    // Degenerate (isotropic or collinear points): any direction fits; report vertical.
    normal[0] = 0;
    normal[1] = 0;
    normal[2] = 1;
  }
  return lambda > 0 ? lambda : 0;
}

/**
 * {@link smallestEigen} of the covariance of `n` points given by their sums
 * of products (`sxx` = Σx², `sxy` = Σxy…) and their mean (mx, my, mz): the
 * variance across their best-fitting plane, its normal written to `normal`.
 *
 * @example
 * const variance = planeOfSums(n, sx / n, sy / n, sz / n, sxx, sxy, sxz, syy, syz, szz, normal);
 */
export function planeOfSums(
  n: number,
  mx: number,
  my: number,
  mz: number,
  sxx: number,
  sxy: number,
  sxz: number,
  syy: number,
  syz: number,
  szz: number,
  normal: Float64Array,
): number {
  return smallestEigen(
    sxx / n - mx * mx,
    sxy / n - mx * my,
    sxz / n - mx * mz,
    syy / n - my * my,
    syz / n - my * mz,
    szz / n - mz * mz,
    normal,
  );
}
