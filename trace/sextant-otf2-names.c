/*
 * sextant-otf2-names.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The switch tables below were generated once from the OTF2 3.0.2 headers;
 * values a newer OTF2 adds map to "UNKNOWN".
 */
#include "config.h"

#include "sextant-otf2-names.h"

#define SEXTANT_KIND_NAME(name) #name,
const char * const sextant_event_kind_names[SEXTANT_N_EVENT_KINDS] = {
  SEXTANT_EVENT_KINDS (SEXTANT_KIND_NAME)
};
const char * const sextant_def_kind_names[SEXTANT_N_DEF_KINDS] = {
  SEXTANT_DEF_KINDS (SEXTANT_KIND_NAME)
};
#undef SEXTANT_KIND_NAME

const char *
sextant_otf2_role_name (OTF2_RegionRole value)
{
  switch (value)
    {
    case OTF2_REGION_ROLE_UNKNOWN: return "UNKNOWN";
    case OTF2_REGION_ROLE_FUNCTION: return "FUNCTION";
    case OTF2_REGION_ROLE_WRAPPER: return "WRAPPER";
    case OTF2_REGION_ROLE_LOOP: return "LOOP";
    case OTF2_REGION_ROLE_CODE: return "CODE";
    case OTF2_REGION_ROLE_PARALLEL: return "PARALLEL";
    case OTF2_REGION_ROLE_SECTIONS: return "SECTIONS";
    case OTF2_REGION_ROLE_SECTION: return "SECTION";
    case OTF2_REGION_ROLE_WORKSHARE: return "WORKSHARE";
    case OTF2_REGION_ROLE_SINGLE: return "SINGLE";
    case OTF2_REGION_ROLE_SINGLE_SBLOCK: return "SINGLE_SBLOCK";
    case OTF2_REGION_ROLE_MASTER: return "MASTER";
    case OTF2_REGION_ROLE_CRITICAL: return "CRITICAL";
    case OTF2_REGION_ROLE_CRITICAL_SBLOCK: return "CRITICAL_SBLOCK";
    case OTF2_REGION_ROLE_ATOMIC: return "ATOMIC";
    case OTF2_REGION_ROLE_BARRIER: return "BARRIER";
    case OTF2_REGION_ROLE_IMPLICIT_BARRIER: return "IMPLICIT_BARRIER";
    case OTF2_REGION_ROLE_FLUSH: return "FLUSH";
    case OTF2_REGION_ROLE_ORDERED: return "ORDERED";
    case OTF2_REGION_ROLE_ORDERED_SBLOCK: return "ORDERED_SBLOCK";
    case OTF2_REGION_ROLE_TASK: return "TASK";
    case OTF2_REGION_ROLE_TASK_CREATE: return "TASK_CREATE";
    case OTF2_REGION_ROLE_TASK_WAIT: return "TASK_WAIT";
    case OTF2_REGION_ROLE_COLL_ONE2ALL: return "COLL_ONE2ALL";
    case OTF2_REGION_ROLE_COLL_ALL2ONE: return "COLL_ALL2ONE";
    case OTF2_REGION_ROLE_COLL_ALL2ALL: return "COLL_ALL2ALL";
    case OTF2_REGION_ROLE_COLL_OTHER: return "COLL_OTHER";
    case OTF2_REGION_ROLE_FILE_IO: return "FILE_IO";
    case OTF2_REGION_ROLE_POINT2POINT: return "POINT2POINT";
    case OTF2_REGION_ROLE_RMA: return "RMA";
    case OTF2_REGION_ROLE_DATA_TRANSFER: return "DATA_TRANSFER";
    case OTF2_REGION_ROLE_ARTIFICIAL: return "ARTIFICIAL";
    case OTF2_REGION_ROLE_THREAD_CREATE: return "THREAD_CREATE";
    case OTF2_REGION_ROLE_THREAD_WAIT: return "THREAD_WAIT";
    case OTF2_REGION_ROLE_TASK_UNTIED: return "TASK_UNTIED";
    case OTF2_REGION_ROLE_ALLOCATE: return "ALLOCATE";
    case OTF2_REGION_ROLE_DEALLOCATE: return "DEALLOCATE";
    case OTF2_REGION_ROLE_REALLOCATE: return "REALLOCATE";
    case OTF2_REGION_ROLE_FILE_IO_METADATA: return "FILE_IO_METADATA";
    default: return "UNKNOWN";
    }
}

const char *
sextant_otf2_paradigm_name (OTF2_Paradigm value)
{
  switch (value)
    {
    case OTF2_PARADIGM_UNKNOWN: return "UNKNOWN";
    case OTF2_PARADIGM_USER: return "USER";
    case OTF2_PARADIGM_COMPILER: return "COMPILER";
    case OTF2_PARADIGM_OPENMP: return "OPENMP";
    case OTF2_PARADIGM_MPI: return "MPI";
    case OTF2_PARADIGM_CUDA: return "CUDA";
    case OTF2_PARADIGM_MEASUREMENT_SYSTEM: return "MEASUREMENT_SYSTEM";
    case OTF2_PARADIGM_PTHREAD: return "PTHREAD";
    case OTF2_PARADIGM_HMPP: return "HMPP";
    case OTF2_PARADIGM_OMPSS: return "OMPSS";
    case OTF2_PARADIGM_HARDWARE: return "HARDWARE";
    case OTF2_PARADIGM_GASPI: return "GASPI";
    case OTF2_PARADIGM_UPC: return "UPC";
    case OTF2_PARADIGM_SHMEM: return "SHMEM";
    case OTF2_PARADIGM_WINTHREAD: return "WINTHREAD";
    case OTF2_PARADIGM_QTTHREAD: return "QTTHREAD";
    case OTF2_PARADIGM_ACETHREAD: return "ACETHREAD";
    case OTF2_PARADIGM_TBBTHREAD: return "TBBTHREAD";
    case OTF2_PARADIGM_OPENACC: return "OPENACC";
    case OTF2_PARADIGM_OPENCL: return "OPENCL";
    case OTF2_PARADIGM_MTAPI: return "MTAPI";
    case OTF2_PARADIGM_SAMPLING: return "SAMPLING";
    case OTF2_PARADIGM_NONE: return "NONE";
    case OTF2_PARADIGM_HIP: return "HIP";
    case OTF2_PARADIGM_KOKKOS: return "KOKKOS";
    default: return "UNKNOWN";
    }
}

const char *
sextant_otf2_collective_op_name (OTF2_CollectiveOp value)
{
  switch (value)
    {
    case OTF2_COLLECTIVE_OP_BARRIER: return "BARRIER";
    case OTF2_COLLECTIVE_OP_BCAST: return "BCAST";
    case OTF2_COLLECTIVE_OP_GATHER: return "GATHER";
    case OTF2_COLLECTIVE_OP_GATHERV: return "GATHERV";
    case OTF2_COLLECTIVE_OP_SCATTER: return "SCATTER";
    case OTF2_COLLECTIVE_OP_SCATTERV: return "SCATTERV";
    case OTF2_COLLECTIVE_OP_ALLGATHER: return "ALLGATHER";
    case OTF2_COLLECTIVE_OP_ALLGATHERV: return "ALLGATHERV";
    case OTF2_COLLECTIVE_OP_ALLTOALL: return "ALLTOALL";
    case OTF2_COLLECTIVE_OP_ALLTOALLV: return "ALLTOALLV";
    case OTF2_COLLECTIVE_OP_ALLTOALLW: return "ALLTOALLW";
    case OTF2_COLLECTIVE_OP_ALLREDUCE: return "ALLREDUCE";
    case OTF2_COLLECTIVE_OP_REDUCE: return "REDUCE";
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER: return "REDUCE_SCATTER";
    case OTF2_COLLECTIVE_OP_SCAN: return "SCAN";
    case OTF2_COLLECTIVE_OP_EXSCAN: return "EXSCAN";
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK: return "REDUCE_SCATTER_BLOCK";
    case OTF2_COLLECTIVE_OP_CREATE_HANDLE: return "CREATE_HANDLE";
    case OTF2_COLLECTIVE_OP_DESTROY_HANDLE: return "DESTROY_HANDLE";
    case OTF2_COLLECTIVE_OP_ALLOCATE: return "ALLOCATE";
    case OTF2_COLLECTIVE_OP_DEALLOCATE: return "DEALLOCATE";
    case OTF2_COLLECTIVE_OP_CREATE_HANDLE_AND_ALLOCATE: return "CREATE_HANDLE_AND_ALLOCATE";
    case OTF2_COLLECTIVE_OP_DESTROY_HANDLE_AND_DEALLOCATE: return "DESTROY_HANDLE_AND_DEALLOCATE";
    default: return "UNKNOWN";
    }
}

const char *
sextant_otf2_location_type_name (OTF2_LocationType value)
{
  switch (value)
    {
    case OTF2_LOCATION_TYPE_UNKNOWN: return "UNKNOWN";
    case OTF2_LOCATION_TYPE_CPU_THREAD: return "CPU_THREAD";
    case OTF2_LOCATION_TYPE_ACCELERATOR_STREAM: return "ACCELERATOR_STREAM";
    case OTF2_LOCATION_TYPE_METRIC: return "METRIC";
    default: return "UNKNOWN";
    }
}

const char *
sextant_otf2_location_group_type_name (OTF2_LocationGroupType value)
{
  switch (value)
    {
    case OTF2_LOCATION_GROUP_TYPE_UNKNOWN: return "UNKNOWN";
    case OTF2_LOCATION_GROUP_TYPE_PROCESS: return "PROCESS";
    case OTF2_LOCATION_GROUP_TYPE_ACCELERATOR: return "ACCELERATOR";
    default: return "UNKNOWN";
    }
}

const char *
sextant_otf2_group_type_name (OTF2_GroupType value)
{
  switch (value)
    {
    case OTF2_GROUP_TYPE_UNKNOWN: return "UNKNOWN";
    case OTF2_GROUP_TYPE_LOCATIONS: return "LOCATIONS";
    case OTF2_GROUP_TYPE_REGIONS: return "REGIONS";
    case OTF2_GROUP_TYPE_METRIC: return "METRIC";
    case OTF2_GROUP_TYPE_COMM_LOCATIONS: return "COMM_LOCATIONS";
    case OTF2_GROUP_TYPE_COMM_GROUP: return "COMM_GROUP";
    case OTF2_GROUP_TYPE_COMM_SELF: return "COMM_SELF";
    default: return "UNKNOWN";
    }
}

const char *
sextant_otf2_atomic_type_name (OTF2_RmaAtomicType value)
{
  switch (value)
    {
    case OTF2_RMA_ATOMIC_TYPE_ACCUMULATE: return "ACCUMULATE";
    case OTF2_RMA_ATOMIC_TYPE_INCREMENT: return "INCREMENT";
    case OTF2_RMA_ATOMIC_TYPE_TEST_AND_SET: return "TEST_AND_SET";
    case OTF2_RMA_ATOMIC_TYPE_COMPARE_AND_SWAP: return "COMPARE_AND_SWAP";
    case OTF2_RMA_ATOMIC_TYPE_SWAP: return "SWAP";
    case OTF2_RMA_ATOMIC_TYPE_FETCH_AND_ADD: return "FETCH_AND_ADD";
    case OTF2_RMA_ATOMIC_TYPE_FETCH_AND_INCREMENT: return "FETCH_AND_INCREMENT";
    case OTF2_RMA_ATOMIC_TYPE_FETCH_AND_ACCUMULATE: return "FETCH_AND_ACCUMULATE";
    default: return "UNKNOWN";
    }
}

const char *
sextant_otf2_lock_type_name (OTF2_LockType value)
{
  switch (value)
    {
    case OTF2_LOCK_EXCLUSIVE: return "EXCLUSIVE";
    case OTF2_LOCK_SHARED: return "SHARED";
    default: return "UNKNOWN";
    }
}

const char *
sextant_otf2_rma_sync_type_name (OTF2_RmaSyncType value)
{
  switch (value)
    {
    case OTF2_RMA_SYNC_TYPE_MEMORY: return "MEMORY";
    case OTF2_RMA_SYNC_TYPE_NOTIFY_IN: return "NOTIFY_IN";
    case OTF2_RMA_SYNC_TYPE_NOTIFY_OUT: return "NOTIFY_OUT";
    default: return "UNKNOWN";
    }
}

const char *
sextant_otf2_paradigm_class_name (OTF2_ParadigmClass value)
{
  switch (value)
    {
    case OTF2_PARADIGM_CLASS_PROCESS: return "PROCESS";
    case OTF2_PARADIGM_CLASS_THREAD_FORK_JOIN: return "THREAD_FORK_JOIN";
    case OTF2_PARADIGM_CLASS_THREAD_CREATE_WAIT: return "THREAD_CREATE_WAIT";
    case OTF2_PARADIGM_CLASS_ACCELERATOR: return "ACCELERATOR";
    default: return "UNKNOWN";
    }
}
