/* Float and double math for the objdump differential test: arithmetic, fused
 * multiply-add, conversions in every direction, comparisons, sign injection,
 * min/max, sqrt, classification through libm. */
#include <math.h>
#include <stdint.h>

volatile double dsink;
volatile float fsink;

float fmix(float a, float b, float c)
{
    return fmaf(a, b, c) - fminf(a, b) * fmaxf(b, c) + sqrtf(fabsf(a)) + copysignf(b, -c);
}

double dmix(double a, double b, double c)
{
    return fma(a, b, -c) + fmin(a, b) / fmax(b, c) + sqrt(fabs(c)) + copysign(a, b);
}

int64_t conv(double d, float f, int32_t i, uint64_t u)
{
    double x = (double)i + (double)u + (double)f;
    float y = (float)d + (float)i + (float)u;
    int64_t r = (int64_t)x + (int64_t)y + (int32_t)d + (uint32_t)f + (int64_t)(uint64_t)d;
    return r + (d < (double)f) + (f <= (float)d) + (d == x) + isnan(d) + isinf(f);
}

double poly(const double *c, int n, double x)
{
    double r = 0;
    for (int i = n - 1; i >= 0; i--)
        r = r * x + c[i];
    return r;
}

int main(void)
{
    static const double c[6] = {1.0, -0.5, 0.25, -0.125, 0.0625, -0.03125};
    double acc = 0;
    for (int i = 1; i < 50; i++) {
        acc += dmix(acc, (double)i, 0.5 * i) + fmix((float)acc, (float)i, 1.5f);
        acc += (double)conv(acc, (float)i, i, (uint64_t)i) + poly(c, 6, 1.0 / i);
        acc += sin((double)i) * exp(-acc * 1e-9) + (double)floorf((float)i * 0.3f);
    }
    dsink = acc;
    fsink = (float)acc;
    return 0;
}
