/* tests/cmd/png_ink.c - where the ink of a rendered chart is, for
   tests/cmd/test_charts_render.sh: png_ink IMAGE.png REGIONS reads an
   8-bit RGB or RGBA PNG (rsvg-convert's, on a white background) and a
   list of regions, one a line: an id, a box (four corners, x y each, in
   order around it) and a search area (four corners likewise). Every pixel
   darker than near-white is ink; it belongs to the first region whose
   search area holds its centre. Prints per region `id PIXELS OUT`, OUT
   the farthest an ink pixel's centre lies outside the region's box (in
   pixels, negative when all lie inside), then `orphans N` for the ink no
   search area holds, and its bounding box when N > 0. Exit status 2 on
   bad input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <zlib.h>

typedef struct region {
    char id[32];
    double box[8], area[8];
    long pixels;
    double out;
} region;

static unsigned long be32(const unsigned char *p)
{
    return (unsigned long)p[0] << 24 | (unsigned long)p[1] << 16 | (unsigned long)p[2] << 8 | p[3];
}

/* The signed distance of (x, y) outside the convex quadrilateral q (corners
   in order, either orientation): the largest over its edges. */
static double outside(const double *q, double x, double y)
{
    double area2 = 0, worst = -1e300;
    int k;
    for (k = 0; k < 4; k++) {
        int j = (k + 1) % 4;
        area2 += q[2 * k] * q[2 * j + 1] - q[2 * j] * q[2 * k + 1];
    }
    for (k = 0; k < 4; k++) {
        int j = (k + 1) % 4;
        double ex = q[2 * j] - q[2 * k], ey = q[2 * j + 1] - q[2 * k + 1], len = ex * ex + ey * ey, d;
        if (len <= 0) continue;
        /* the cross product's sign says which side; outward positive */
        d = (ex * (y - q[2 * k + 1]) - ey * (x - q[2 * k])) / sqrt(len);
        if (area2 > 0) d = -d;
        if (d > worst) worst = d;
    }
    return worst;
}

static unsigned char paeth(int a, int b, int c)
{
    int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    return (unsigned char)(pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
}

int main(int argc, char **argv)
{
    FILE *f;
    unsigned char sig[8], hdr[8], *idat = NULL, *raw, *img;
    size_t nidat = 0, cap = 0;
    unsigned long w = 0, h = 0, x, y;
    int bpp = 0;
    uLongf rawlen;
    region *rg = NULL;
    size_t nr = 0, rcap = 0, i;
    long orphans = 0;
    double ox0 = 1e9, oy0 = 1e9, ox1 = -1, oy1 = -1;
    char line[1024];
    if (argc != 3) {
        fprintf(stderr, "usage: png_ink IMAGE.png REGIONS\n");
        return 2;
    }
    f = fopen(argv[1], "rb");
    if (!f || fread(sig, 1, 8, f) != 8 || memcmp(sig, "\x89PNG\r\n\x1a\n", 8)) {
        fprintf(stderr, "png_ink: %s: not a PNG\n", argv[1]);
        return 2;
    }
    while (fread(hdr, 1, 8, f) == 8) {
        unsigned long len = be32(hdr);
        unsigned char *data = malloc(len + 4);
        if (!data || fread(data, 1, len + 4, f) != len + 4) {
            fprintf(stderr, "png_ink: %s: truncated\n", argv[1]);
            return 2;
        }
        if (!memcmp(hdr + 4, "IHDR", 4)) {
            w = be32(data);
            h = be32(data + 4);
            if (data[8] != 8 || (data[9] != 6 && data[9] != 2) || data[12]) {
                fprintf(stderr, "png_ink: %s: not an 8-bit RGB(A) PNG without interlace\n", argv[1]);
                return 2;
            }
            bpp = data[9] == 6 ? 4 : 3;
        } else if (!memcmp(hdr + 4, "IDAT", 4)) {
            if (nidat + len > cap) {
                cap = (nidat + len) * 2;
                idat = realloc(idat, cap);
                if (!idat) return 2;
            }
            memcpy(idat + nidat, data, len);
            nidat += len;
        }
        free(data);
        if (!memcmp(hdr + 4, "IEND", 4)) break;
    }
    fclose(f);
    if (!w || !h || !bpp) {
        fprintf(stderr, "png_ink: %s: no image header\n", argv[1]);
        return 2;
    }
    rawlen = (uLongf)(h * (1 + w * bpp));
    raw = malloc(rawlen);
    img = malloc(h * w * bpp);
    if (!raw || !img || uncompress(raw, &rawlen, idat, (uLong)nidat) != Z_OK || rawlen != h * (1 + w * bpp)) {
        fprintf(stderr, "png_ink: %s: bad image data\n", argv[1]);
        return 2;
    }
    for (y = 0; y < h; y++) {
        const unsigned char *src = raw + y * (1 + w * bpp) + 1;
        unsigned char *row = img + y * w * bpp, *up = y ? row - w * bpp : NULL;
        int type = src[-1];
        for (x = 0; x < w * bpp; x++) {
            int a = x >= (unsigned long)bpp ? row[x - bpp] : 0, b = up ? up[x] : 0,
                c = up && x >= (unsigned long)bpp ? up[x - bpp] : 0;
            switch (type) {
            case 0: row[x] = src[x]; break;
            case 1: row[x] = (unsigned char)(src[x] + a); break;
            case 2: row[x] = (unsigned char)(src[x] + b); break;
            case 3: row[x] = (unsigned char)(src[x] + (a + b) / 2); break;
            case 4: row[x] = (unsigned char)(src[x] + paeth(a, b, c)); break;
            default: fprintf(stderr, "png_ink: %s: bad filter %d\n", argv[1], type); return 2;
            }
        }
    }
    f = fopen(argv[2], "r");
    if (!f) {
        fprintf(stderr, "png_ink: cannot read %s\n", argv[2]);
        return 2;
    }
    while (fgets(line, sizeof line, f)) {
        region r;
        memset(&r, 0, sizeof r);
        if (sscanf(line, "%31s %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf", r.id, &r.box[0],
                   &r.box[1], &r.box[2], &r.box[3], &r.box[4], &r.box[5], &r.box[6], &r.box[7], &r.area[0],
                   &r.area[1], &r.area[2], &r.area[3], &r.area[4], &r.area[5], &r.area[6], &r.area[7]) != 17)
            continue;
        r.out = -1e300;
        if (nr == rcap) {
            rcap = rcap ? 2 * rcap : 64;
            rg = realloc(rg, rcap * sizeof *rg);
            if (!rg) return 2;
        }
        rg[nr++] = r;
    }
    fclose(f);
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) {
            const unsigned char *p = img + (y * w + x) * bpp;
            int m = p[0] < p[1] ? p[0] : p[1];
            double cx = x + 0.5, cy = y + 0.5;
            if (p[2] < m) m = p[2];
            if (m >= 235) continue;
            for (i = 0; i < nr; i++)
                if (outside(rg[i].area, cx, cy) <= 0) break;
            if (i == nr) {
                orphans++;
                if (cx < ox0) ox0 = cx;
                if (cy < oy0) oy0 = cy;
                if (cx > ox1) ox1 = cx;
                if (cy > oy1) oy1 = cy;
                continue;
            }
            rg[i].pixels++;
            {
                double d = outside(rg[i].box, cx, cy);
                if (d > rg[i].out) rg[i].out = d;
            }
        }
    for (i = 0; i < nr; i++) printf("%s %ld %.2f\n", rg[i].id, rg[i].pixels, rg[i].pixels ? rg[i].out : 0.0);
    if (orphans) printf("orphans %ld %.1f %.1f %.1f %.1f\n", orphans, ox0, oy0, ox1, oy1);
    else printf("orphans 0\n");
    free(raw);
    free(img);
    free(idat);
    free(rg);
    return 0;
}
