/*
   The scheme families and named schemes of TSSIMPVI. A family is one constructor on a PetscFunctionList, as
   TSIRKRegister() keeps IRK's: for a degree it gives the quadrature and the order, from which the core builds the scheme
   table (src/core/scheme.c). A named scheme (midpoint, trapezoid, simpson, lobatto, gauss, a family's own name, the
   user's) is a family, a default degree and whether -ts_simpvi_degree may change it.
*/
#include <simpvi/private/tssimpviimpl.h> /*I "simpvi.h" I*/

const char *const TSSimpVIQuadratures[] = {"lobatto", "gauss", "TSSimpVIQuadrature", "TSSIMPVI_QUADRATURE_", NULL};

static PetscFunctionList SimpVIFamilyList;

typedef struct _SimpVISchemeLink *SimpVISchemeLink;
struct _SimpVISchemeLink {
  char            *name, *family;
  PetscInt         degree;
  PetscBool        degreefixed;
  SimpVISchemeLink next;
};
static SimpVISchemeLink SchemeList;
static PetscBool        TSSimpVIRegisterAllCalled;

/* The named scheme of this name, or NULL */
static PetscErrorCode SchemeFind(const char name[], SimpVISchemeLink *found)
{
  PetscFunctionBegin;
  *found = NULL;
  for (SimpVISchemeLink link = SchemeList; link; link = link->next) {
    PetscBool match;

    PetscCall(PetscStrcmp(link->name, name, &match));
    if (match) {
      *found = link;
      break;
    }
  }
  PetscFunctionReturn(0);
}

/* The constructor of a family; unknown families stop here, with the choices */
static PetscErrorCode FamilyFind(const char family[], TSSimpVIFamilyFn *create)
{
  PetscFunctionBegin;
  PetscCall(TSSimpVIRegisterAll());
  PetscCall(PetscFunctionListFind(SimpVIFamilyList, family, create));
  PetscCheck(*create, PETSC_COMM_SELF, PETSC_ERR_ARG_UNKNOWN_TYPE, "Unknown TSSIMPVI scheme family '%s'; choose lobatto, gauss or a name given to TSSimpVIRegisterFamily()", family);
  PetscFunctionReturn(0);
}

/*@C
  TSSimpVIRegisterFamily - Adds a family of `TSSIMPVI` schemes: a constructor that gives, for each degree, the quadrature
  of the step and the order of the scheme

  Not Collective, but the same families should be registered on all processes

  Input Parameters:
+ name   - the family's name, also a scheme name for `TSSimpVISetType()` and -ts_simpvi_type
- create - its constructor, see `TSSimpVIFamilyFn`

  Level: advanced

  Notes:
  The family's name becomes a scheme of the family at degree 2, which -ts_simpvi_degree (`TSSimpVISetDegree()`) may
  change; `TSSimpVIRegisterScheme()` gives it another default degree or other names. The nodes of the step polynomial
  stay the s+1 Gauss-Lobatto points; -ts_view names the family and `TSSimpVIGetTableau()` gives its table. Registering
  an existing family replaces its constructor (its schemes keep their degrees).

  Sample usage:
.vb
  static PetscErrorCode Gauss2(PetscInt s, PetscInt *nq, PetscReal *tau[], PetscReal *w[], PetscInt *order)
  {
    PetscFunctionBegin;
    *nq    = s + 2;
    *order = 2 * s;
    PetscCall(PetscMalloc1(s + 2, tau));
    PetscCall(PetscMalloc1(s + 2, w));
    PetscCall(PetscDTGaussQuadrature(s + 2, 0, 1, *tau, *w));
    PetscFunctionReturn(0);
  }

  TSSimpVIRegisterFamily("gauss2", Gauss2);
.ve
  Then -ts_simpvi_type gauss2 -ts_simpvi_degree 3 runs it at degree 3.

.seealso: `TSSIMPVI`, `TSSimpVIFamilyFn`, `TSSimpVIRegisterScheme()`, `TSSimpVIRegister()`, `TSSimpVISetType()`
@*/
PetscErrorCode TSSimpVIRegisterFamily(const char name[], TSSimpVIFamilyFn create)
{
  SimpVISchemeLink link;
  PetscBool        same = PETSC_FALSE;

  PetscFunctionBegin;
  SimpVIAssertPointer(name, 1);
  PetscCheck(create, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "TSSIMPVI scheme family '%s' needs a constructor", name);
  PetscCall(TSSimpVIRegisterAll()); /* the built-in families first, so that a user's family may replace one */
  PetscCall(PetscFunctionListAdd(&SimpVIFamilyList, name, create));
  PetscCall(SchemeFind(name, &link));
  if (link) PetscCall(PetscStrcmp(link->family, name, &same));
  if (!same) PetscCall(TSSimpVIRegisterScheme(name, name, 2, PETSC_FALSE));
  PetscFunctionReturn(0);
}

/*@C
  TSSimpVIRegisterScheme - Adds a named scheme to the `TSSIMPVI` registry: a family and a degree

  Not Collective, but the same schemes should be registered on all processes

  Input Parameters:
+ name        - the name, used with `TSSimpVISetType()` and -ts_simpvi_type
. family      - a family: "lobatto", "gauss" or a name given to `TSSimpVIRegisterFamily()`
. degree      - the default polynomial degree s
- degreefixed - `PETSC_TRUE` if -ts_simpvi_degree may not change the degree

  Level: advanced

  Note:
  Registering an existing name replaces it.

.seealso: `TSSIMPVI`, `TSSimpVIRegisterFamily()`, `TSSimpVIRegister()`, `TSSimpVISetType()`
@*/
PetscErrorCode TSSimpVIRegisterScheme(const char name[], const char family[], PetscInt degree, PetscBool degreefixed)
{
  SimpVISchemeLink link;
  TSSimpVIFamilyFn create;

  PetscFunctionBegin;
  SimpVIAssertPointer(name, 1);
  SimpVIAssertPointer(family, 2);
  PetscCall(TSSimpVIRegisterAll()); /* the built-in names first, so that a user's scheme may replace one */
  PetscCheck(degree >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "TSSIMPVI scheme %s: degree %" PetscInt_FMT " must be at least 1", name, degree);
  PetscCall(FamilyFind(family, &create));
  PetscCall(SchemeFind(name, &link));
  if (!link) {
    PetscCall(PetscNew(&link));
    PetscCall(PetscStrallocpy(name, &link->name));
    link->next = SchemeList;
    SchemeList = link;
  }
  PetscCall(PetscFree(link->family));
  PetscCall(PetscStrallocpy(family, &link->family));
  link->degree      = degree;
  link->degreefixed = degreefixed;
  PetscFunctionReturn(0);
}

/*@C
  TSSimpVIRegister - Adds a named scheme of a built-in family to the `TSSIMPVI` registry

  Not Collective, but the same schemes should be registered on all processes

  Input Parameters:
+ name        - the name, used with `TSSimpVISetType()` and -ts_simpvi_type
. quadrature  - `TSSIMPVI_QUADRATURE_LOBATTO` or `TSSIMPVI_QUADRATURE_GAUSS`
. degree      - the default polynomial degree s (order 2s)
- degreefixed - `PETSC_TRUE` if -ts_simpvi_degree may not change the degree

  Level: advanced

  Note:
  Registering an existing name replaces it. This is `TSSimpVIRegisterScheme()` with the family "lobatto" or "gauss".

.seealso: `TSSIMPVI`, `TSSimpVIRegisterScheme()`, `TSSimpVIRegisterFamily()`, `TSSimpVIRegisterAll()`, `TSSimpVISetType()`
@*/
PetscErrorCode TSSimpVIRegister(const char name[], TSSimpVIQuadrature quadrature, PetscInt degree, PetscBool degreefixed)
{
  PetscFunctionBegin;
  PetscCheck(quadrature == TSSIMPVI_QUADRATURE_LOBATTO || quadrature == TSSIMPVI_QUADRATURE_GAUSS, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Unknown TSSimpVIQuadrature %d", (int)quadrature);
  PetscCall(TSSimpVIRegisterScheme(name, TSSimpVIQuadratures[quadrature], degree, degreefixed));
  PetscFunctionReturn(0);
}

/*@C
  TSSimpVIRegisterAll - Registers the built-in `TSSIMPVI` families, lobatto and gauss, and schemes: midpoint, trapezoid,
  simpson, lobatto and gauss

  Not Collective

  Level: advanced

.seealso: `TSSimpVIRegister()`, `TSSimpVIRegisterFamily()`, `TSSimpVIRegisterDestroy()`
@*/
PetscErrorCode TSSimpVIRegisterAll(void)
{
  PetscFunctionBegin;
  if (TSSimpVIRegisterAllCalled) PetscFunctionReturn(0);
  TSSimpVIRegisterAllCalled = PETSC_TRUE;
  PetscCall(PetscRegisterFinalize(TSSimpVIRegisterDestroy)); /* the registry frees itself, user schemes included */
  PetscCall(TSSimpVIRegisterFamily(TSSimpVIQuadratures[TSSIMPVI_QUADRATURE_GAUSS], SimpVIFamilyGauss_Private));
  PetscCall(TSSimpVIRegisterFamily(TSSimpVIQuadratures[TSSIMPVI_QUADRATURE_LOBATTO], SimpVIFamilyLobatto_Private));
  PetscCall(TSSimpVIRegister(TSSIMPVIGAUSS, TSSIMPVI_QUADRATURE_GAUSS, 2, PETSC_FALSE));
  PetscCall(TSSimpVIRegister(TSSIMPVILOBATTO, TSSIMPVI_QUADRATURE_LOBATTO, 3, PETSC_FALSE));
  PetscCall(TSSimpVIRegister(TSSIMPVISIMPSON, TSSIMPVI_QUADRATURE_LOBATTO, 2, PETSC_TRUE));
  PetscCall(TSSimpVIRegister(TSSIMPVITRAPEZOID, TSSIMPVI_QUADRATURE_LOBATTO, 1, PETSC_TRUE));
  PetscCall(TSSimpVIRegister(TSSIMPVIMIDPOINT, TSSIMPVI_QUADRATURE_GAUSS, 1, PETSC_TRUE));
  PetscFunctionReturn(0);
}

/*@C
  TSSimpVIRegisterDestroy - Frees the `TSSIMPVI` registry of families and schemes

  Not Collective

  Level: advanced

.seealso: `TSSimpVIRegister()`, `TSSimpVIRegisterFamily()`, `TSSimpVIRegisterAll()`
@*/
PetscErrorCode TSSimpVIRegisterDestroy(void)
{
  PetscFunctionBegin;
  while (SchemeList) {
    SimpVISchemeLink link = SchemeList;

    SchemeList = link->next;
    PetscCall(PetscFree(link->name));
    PetscCall(PetscFree(link->family));
    PetscCall(PetscFree(link));
  }
  PetscCall(PetscFunctionListDestroy(&SimpVIFamilyList));
  TSSimpVIRegisterAllCalled = PETSC_FALSE;
  PetscFunctionReturn(0);
}

/* The registered names, for -ts_simpvi_type (the array to be freed with PetscFree(); its strings stay the registry's) */
PetscErrorCode SimpVISchemeNames_Private(PetscInt *n, const char ***names)
{
  PetscInt count = 0;

  PetscFunctionBegin;
  PetscCall(TSSimpVIRegisterAll());
  for (SimpVISchemeLink link = SchemeList; link; link = link->next) count++;
  PetscCall(PetscMalloc1(count, names));
  count = 0;
  for (SimpVISchemeLink link = SchemeList; link; link = link->next) (*names)[count++] = link->name;
  *n = count;
  PetscFunctionReturn(0);
}

/* Looks a name up (*family stays the registry's: copy it); the caller reports unknown names so the message can list the choices */
PetscErrorCode SimpVISchemeFind_Private(const char name[], const char **family, PetscInt *degree, PetscBool *degreefixed)
{
  SimpVISchemeLink link;

  PetscFunctionBegin;
  PetscCall(TSSimpVIRegisterAll());
  PetscCall(SchemeFind(name, &link));
  PetscCheck(link, PETSC_COMM_SELF, PETSC_ERR_ARG_UNKNOWN_TYPE, "Unknown TSSIMPVI scheme '%s'; choose midpoint, trapezoid, simpson, lobatto, gauss or a name given to TSSimpVIRegister()", name);
  *family      = link->family;
  *degree      = link->degree;
  *degreefixed = link->degreefixed;
  PetscFunctionReturn(0);
}

/* Whether a table is the one of (family, degree) */
PetscErrorCode SimpVISchemeIs_Private(const SimpVIScheme *sc, const char family[], PetscInt degree, PetscBool *is)
{
  PetscFunctionBegin;
  *is = PETSC_FALSE;
  if (sc && sc->degree == degree) PetscCall(PetscStrcmp(sc->family, family, is));
  PetscFunctionReturn(0);
}

/* *scheme made the table of (family, degree) by the family's constructor, unless it already is */
PetscErrorCode SimpVISchemeTable_Private(const char family[], PetscInt degree, SimpVIScheme **scheme)
{
  TSSimpVIFamilyFn create;
  PetscBool        is;

  PetscFunctionBegin;
  PetscCall(SimpVISchemeIs_Private(*scheme, family, degree, &is));
  if (is) PetscFunctionReturn(0);
  PetscCall(FamilyFind(family, &create));
  PetscCall(SimpVISchemeDestroy_Private(scheme));
  PetscCall(SimpVISchemeCreate_Private(family, create, degree, scheme));
  PetscFunctionReturn(0);
}

/* How -ts_view names a family's quadrature: the built-in constructors by their points, any other by its name */
PetscErrorCode SimpVISchemeFamilyTitle_Private(const char family[], const char **title)
{
  TSSimpVIFamilyFn create;

  PetscFunctionBegin;
  PetscCall(FamilyFind(family, &create));
  *title = create == SimpVIFamilyLobatto_Private ? "Gauss-Lobatto" : create == SimpVIFamilyGauss_Private ? "Gauss-Legendre" : family;
  PetscFunctionReturn(0);
}

/* A number for the family in a checkpoint's header: the TSSimpVIQuadrature of a built-in one (as before families), else
   a hash of its name (FNV-1a) above them, so that a restart with another family stops */
PetscErrorCode SimpVISchemeFamilyId_Private(const char family[], PetscInt *id)
{
  PetscBool    match;
  unsigned int hash = 2166136261u;

  PetscFunctionBegin;
  for (PetscInt q = TSSIMPVI_QUADRATURE_LOBATTO; q <= TSSIMPVI_QUADRATURE_GAUSS; q++) {
    PetscCall(PetscStrcmp(family, TSSimpVIQuadratures[q], &match));
    if (match) {
      *id = q;
      PetscFunctionReturn(0);
    }
  }
  for (const char *c = family; *c; c++) hash = (hash ^ (unsigned char)*c) * 16777619u;
  *id = 2 + (PetscInt)(hash & 0x3fffffffu);
  PetscFunctionReturn(0);
}
