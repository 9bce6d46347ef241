/* The rvmess subcommands: int cmd_<name>(int argc, char **argv), where
 * argv[0] is the command name.  Return the process exit status.  Adding a
 * command = one declaration here + one line in main.c's table. */
#ifndef RVMESS_CLI_CMDS_H
#define RVMESS_CLI_CMDS_H

int cmd_parse(int argc, char **argv);
int cmd_capture(int argc, char **argv);
int cmd_config(int argc, char **argv);
int cmd_curves(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_sim(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_merge(int argc, char **argv);

#endif
