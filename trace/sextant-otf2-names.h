/*
 * sextant-otf2-names.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Names of OTF2 enumerations and record kinds, spelled exactly as otf2-print
 * spells them, so that `sextant info` can be checked against otf2-print.
 * Internal to trace/: it includes <otf2/otf2.h>.
 */
#pragma once

#include <otf2/otf2.h>

/* Event record kinds, in the order of OTF2_EvtReaderCallbacks. */
#define SEXTANT_EVENT_KINDS(X) \
  X (UNKNOWN) X (BUFFER_FLUSH) X (MEASUREMENT_ON_OFF) X (ENTER) X (LEAVE) \
  X (MPI_SEND) X (MPI_ISEND) X (MPI_ISEND_COMPLETE) X (MPI_IRECV_REQUEST) \
  X (MPI_RECV) X (MPI_IRECV) X (MPI_REQUEST_TEST) X (MPI_REQUEST_CANCELLED) \
  X (MPI_COLLECTIVE_BEGIN) X (MPI_COLLECTIVE_END) X (OMP_FORK) X (OMP_JOIN) \
  X (OMP_ACQUIRE_LOCK) X (OMP_RELEASE_LOCK) X (OMP_TASK_CREATE) X (OMP_TASK_SWITCH) \
  X (OMP_TASK_COMPLETE) X (METRIC) X (PARAMETER_STRING) X (PARAMETER_INT64) \
  X (PARAMETER_UINT64) X (RMA_WIN_CREATE) X (RMA_WIN_DESTROY) X (RMA_COLLECTIVE_BEGIN) \
  X (RMA_COLLECTIVE_END) X (RMA_GROUP_SYNC) X (RMA_REQUEST_LOCK) X (RMA_ACQUIRE_LOCK) \
  X (RMA_TRY_LOCK) X (RMA_RELEASE_LOCK) X (RMA_SYNC) X (RMA_WAIT_CHANGE) X (RMA_PUT) \
  X (RMA_GET) X (RMA_ATOMIC) X (RMA_OP_COMPLETE_BLOCKING) X (RMA_OP_COMPLETE_NON_BLOCKING) \
  X (RMA_OP_TEST) X (RMA_OP_COMPLETE_REMOTE) X (THREAD_FORK) X (THREAD_JOIN) \
  X (THREAD_TEAM_BEGIN) X (THREAD_TEAM_END) X (THREAD_ACQUIRE_LOCK) X (THREAD_RELEASE_LOCK) \
  X (THREAD_TASK_CREATE) X (THREAD_TASK_SWITCH) X (THREAD_TASK_COMPLETE) X (THREAD_CREATE) \
  X (THREAD_BEGIN) X (THREAD_WAIT) X (THREAD_END) X (CALLING_CONTEXT_ENTER) \
  X (CALLING_CONTEXT_LEAVE) X (CALLING_CONTEXT_SAMPLE) X (IO_CREATE_HANDLE) \
  X (IO_DESTROY_HANDLE) X (IO_DUPLICATE_HANDLE) X (IO_SEEK) X (IO_CHANGE_STATUS_FLAGS) \
  X (IO_DELETE_FILE) X (IO_OPERATION_BEGIN) X (IO_OPERATION_TEST) X (IO_OPERATION_ISSUED) \
  X (IO_OPERATION_COMPLETE) X (IO_OPERATION_CANCELLED) X (IO_ACQUIRE_LOCK) X (IO_RELEASE_LOCK) \
  X (IO_TRY_LOCK) X (PROGRAM_BEGIN) X (PROGRAM_END) X (NON_BLOCKING_COLLECTIVE_REQUEST) \
  X (NON_BLOCKING_COLLECTIVE_COMPLETE) X (COMM_CREATE) X (COMM_DESTROY)

/* Global definition kinds, in the order of OTF2_GlobalDefReaderCallbacks. */
#define SEXTANT_DEF_KINDS(X) \
  X (UNKNOWN) X (CLOCK_PROPERTIES) X (PARADIGM) X (PARADIGM_PROPERTY) X (IO_PARADIGM) \
  X (STRING) X (ATTRIBUTE) X (SYSTEM_TREE_NODE) X (LOCATION_GROUP) X (LOCATION) \
  X (REGION) X (CALLSITE) X (CALLPATH) X (GROUP) X (METRIC_MEMBER) X (METRIC_CLASS) \
  X (METRIC_INSTANCE) X (COMM) X (PARAMETER) X (RMA_WIN) X (METRIC_CLASS_RECORDER) \
  X (SYSTEM_TREE_NODE_PROPERTY) X (SYSTEM_TREE_NODE_DOMAIN) X (LOCATION_GROUP_PROPERTY) \
  X (LOCATION_PROPERTY) X (CART_DIMENSION) X (CART_TOPOLOGY) X (CART_COORDINATE) \
  X (SOURCE_CODE_LOCATION) X (CALLING_CONTEXT) X (CALLING_CONTEXT_PROPERTY) \
  X (INTERRUPT_GENERATOR) X (IO_FILE_PROPERTY) X (IO_REGULAR_FILE) X (IO_DIRECTORY) \
  X (IO_HANDLE) X (IO_PRE_CREATED_HANDLE_STATE) X (CALLPATH_PARAMETER) X (INTER_COMM)

#define SEXTANT_KIND_ENUM(name) SEXTANT_EVENT_##name,
typedef enum { SEXTANT_EVENT_KINDS (SEXTANT_KIND_ENUM) SEXTANT_N_EVENT_KINDS } SextantEventKind;
#undef SEXTANT_KIND_ENUM
#define SEXTANT_KIND_ENUM(name) SEXTANT_DEF_##name,
typedef enum { SEXTANT_DEF_KINDS (SEXTANT_KIND_ENUM) SEXTANT_N_DEF_KINDS } SextantDefKind;
#undef SEXTANT_KIND_ENUM

extern const char * const sextant_event_kind_names[SEXTANT_N_EVENT_KINDS];
extern const char * const sextant_def_kind_names[SEXTANT_N_DEF_KINDS];

const char *sextant_otf2_role_name (OTF2_RegionRole value);
const char *sextant_otf2_paradigm_name (OTF2_Paradigm value);
const char *sextant_otf2_collective_op_name (OTF2_CollectiveOp value);
const char *sextant_otf2_location_type_name (OTF2_LocationType value);
const char *sextant_otf2_location_group_type_name (OTF2_LocationGroupType value);
const char *sextant_otf2_group_type_name (OTF2_GroupType value);
const char *sextant_otf2_atomic_type_name (OTF2_RmaAtomicType value);
const char *sextant_otf2_lock_type_name (OTF2_LockType value);
const char *sextant_otf2_rma_sync_type_name (OTF2_RmaSyncType value);
const char *sextant_otf2_paradigm_class_name (OTF2_ParadigmClass value);
